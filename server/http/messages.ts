import { ALL_TEXTS } from "../../shared/locales/all-texts.ts";

/**
 * The English sentence of a translation key, for the `message` of an API error
 * (the browser translates the key itself; API callers read this).
 */
export function englishMessage(key: string): string {
  let node: unknown = ALL_TEXTS.en;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) return key;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node.replace(/\{\{\s*(\w+)\s*\}\}/g, "$1") : key;
}
