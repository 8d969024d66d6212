import { ALL_TEXTS } from "../shared/locales/all-texts.ts";

export type Language = keyof typeof ALL_TEXTS;

/** The text the app shows for a key in a language, so journeys assert what a reader really sees. */
export function text(language: Language, key: string, values: Record<string, string | number> = {}): string {
  let node: unknown = ALL_TEXTS[language];
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== "string") throw new Error(`No ${language} text for ${key}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ""));
}
