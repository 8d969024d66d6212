import en from "../shared/locales/en.json" with { type: "json" };
import es from "../shared/locales/es.json" with { type: "json" };
import fr from "../shared/locales/fr.json" with { type: "json" };

const resources = { en, es, fr } as const;
export type Language = keyof typeof resources;

/** The text the app shows for a key in a language, so journeys assert what a reader really sees. */
export function text(language: Language, key: string, values: Record<string, string | number> = {}): string {
  let node: unknown = resources[language];
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== "string") throw new Error(`No ${language} text for ${key}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ""));
}
