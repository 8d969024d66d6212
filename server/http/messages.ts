import en from "../../shared/locales/en.json" with { type: "json" };

/**
 * The English sentence of a translation key, for the `message` of an API error
 * (the browser translates the key itself; API callers read this).
 */
export function englishMessage(key: string): string {
  let node: unknown = en;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) return key;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node.replace(/\{\{\s*(\w+)\s*\}\}/g, "$1") : key;
}
