import { createHash, randomBytes } from "node:crypto";

/**
 * The secret of an e-reader key (docs/decisions/0030-opds.md): 16 characters of Crockford's base32
 * (digits and capitals without I, L, O and U, which read as 1, 1, 0 and V), shown in four groups of
 * four, "7KQ2-M9XD-4T0P-HB3W". Sixteen symbols of 5 bits are 80 random bits: short enough to type
 * on an e-ink keyboard, and far beyond guessing online (failures are rate-limited) or offline from
 * a stolen hash, so a plain SHA-256 is enough — a slow password hash would only slow every download.
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const KEY_SYMBOLS = 16;
const GROUP = 4;
export const E_READER_KEY_BITS = KEY_SYMBOLS * 5;

/** A new key, as shown to its owner once. */
export function newEReaderKey(): string {
  const bytes = randomBytes(E_READER_KEY_BITS / 8);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let symbols = "";
  for (let index = KEY_SYMBOLS - 1; index >= 0; index -= 1) symbols += ALPHABET[Number((bits >> BigInt(index * 5)) & 31n)];
  return symbols.match(new RegExp(`.{${GROUP}}`, "g"))!.join("-");
}

// Crockford's decoding: the letters people type for the digits they see.
const LOOK_ALIKES: Record<string, string> = { O: "0", I: "1", L: "1" };

/**
 * A key as typed, in its one canonical form: any letter case, with or without the hyphens, spaces
 * where a keyboard put them, O for 0 and I or L for 1. Undefined when it cannot be a key at all.
 */
export function canonicalEReaderKey(typed: string): string | undefined {
  const symbols = typed
    .toUpperCase()
    .replace(/[\s-]/g, "")
    .replace(/[OIL]/g, (letter) => LOOK_ALIKES[letter]!);
  if (symbols.length !== KEY_SYMBOLS || [...symbols].some((symbol) => !ALPHABET.includes(symbol))) return undefined;
  return symbols;
}

/** What the database keeps of a key: the SHA-256 of its canonical form, in hex (64 characters). */
export function hashEReaderKey(canonicalKey: string): string {
  return createHash("sha256").update(canonicalKey).digest("hex");
}

/**
 * What KOReader's progress sync sends for a key typed as its password: the MD5 of the text typed, not
 * of the key (docs/product.md#progress-sync). The canonical form cannot be recovered from a digest, so
 * the digests of the ways a person types a shown key are kept: as shown or without its hyphens, in
 * capitals or small letters. An MD5 of 80 random bits is as safe to keep as the SHA-256 above.
 */
export function koreaderDigestsOf(shownKey: string): string[] {
  const forms = [shownKey, shownKey.replace(/-/g, "")].flatMap((form) => [form, form.toLowerCase()]);
  return forms.map((form) => createHash("md5").update(form).digest("hex"));
}
