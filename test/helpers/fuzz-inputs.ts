import fc from "fast-check";
import { type FormPart, multipartBody } from "./multipart.ts";

/**
 * fast-check arbitraries for hostile HTTP input: text that breaks naive parsers and databases,
 * JSON with wrong types and prototype-pollution keys at any depth, odd path segments and query
 * strings, and multipart bodies broken in every way a client (or an attacker) can break them.
 */

const POLLUTION_KEYS = ["__proto__", "constructor", "prototype"] as const;

/** Characters no one types, which break databases and encoders: PostgreSQL refuses NUL in text outright. */
const UNTYPEABLE_PIECES = ["\u0000", "\uD800", "\uDFFF", "\u0001", "\u007F", "\u0085", "\u001B[31m"] as const;

/** Pieces that have broken real parsers, encoders and templates. */
const HOSTILE_PIECES = [
  ...UNTYPEABLE_PIECES,
  "\u202E", // right-to-left override
  "\u200F", // right-to-left mark
  "\u200B", // zero-width space
  "\uFEFF", // byte order mark
  "\u2028", // line separator
  "\uFFFF",
  "e\u0301\u0301\u0301\u0301", // stacked combining accents
  "👩‍👩‍👧‍👦",
  "🏳️‍🌈",
  "𝕏",
  "İ", // its lower case is longer than itself
  "ﬀ", // a ligature NFKC unfolds
  "ß",
  "مرحبا",
  "\r\n",
  "\t",
  "%00",
  "%",
  "%zz",
  "%C0%AE%C0%AE%2F",
  "../",
  "..\\",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "\"",
  "\\",
  "${jndi:ldap://x}",
  "{{7*7}}",
  "null",
  "NaN",
  "-0",
  "1e309",
  "0x1F",
  ...POLLUTION_KEYS,
] as const;

const repeated = fc.tuple(fc.constantFrom("a", "é", "😀", "\u0000", "9", " "), fc.constantFrom(255, 256, 5_001, 20_000)).map(([unit, count]) => unit.repeat(count));

/** Strings with control characters, lone surrogates, bidi marks, combining marks, emoji and the odd huge one. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: "binary", maxLength: 24 }), weight: 3 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 24 }), weight: 2 },
  { arbitrary: fc.array(fc.oneof(fc.constantFrom(...HOSTILE_PIECES), fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 6 }).map((parts) => parts.join("")), weight: 5 },
  { arbitrary: repeated, weight: 1 },
);

/**
 * A good value with a hostile piece slipped in: it keeps its type and length, so it gets past loose
 * validation to the code behind it. Untypeable characters come often, as they are what breaks storage.
 */
export const taintedText = (good: fc.Arbitrary<string>) =>
  fc.tuple(good, fc.oneof(fc.constantFrom(...UNTYPEABLE_PIECES), fc.constantFrom(...HOSTILE_PIECES)), fc.nat()).map(([text, piece, at]) => {
    const cut = at % (text.length + 1);
    return text.slice(0, cut) + piece + text.slice(cut);
  });

// ---------------------------------------------------------------- JSON

/** JSON text is built by hand, so keys like "__proto__" reach the server exactly as written. */
const jsonString = (value: string) => JSON.stringify(value);

const jsonScalar: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("null", "true", "false", "0", "-0", "1e309", "-1e309", "1.5", "2147483648", "123456789012345678901234567890", "1e-400", "\"\\ud800\"", "\"\\u0000\"", "\"\""),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  hostileText.map(jsonString),
);

const jsonKey = fc.oneof(fc.constantFrom(...POLLUTION_KEYS), hostileText, fc.constantFrom("title", "bookId", "userId", "username", "password", "isAdmin", "role"));

/** Any JSON value, with prototype-pollution keys possible at every depth. */
const hostileJsonValue: fc.Arbitrary<string> = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, jsonScalar, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
  object: fc
    .array(fc.tuple(jsonKey, tie("value")), { maxLength: 5 })
    .map((entries) => `{${entries.map(([key, value]) => `${jsonString(key)}:${value}`).join(",")}}`),
})).value;

/** How a route's JSON field is valid: a string (which can be tainted) or any other JSON text. */
export type JsonField = { text: fc.Arbitrary<string> } | { json: fc.Arbitrary<string> };
export type JsonFields = Record<string, JsonField>;

const validJson = (field: JsonField) => ("text" in field ? field.text.map(jsonString) : field.json);

/** A field gone wrong: tainted, of another type or shape, or missing (undefined). */
const brokenJson = (field: JsonField): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    ...("text" in field ? [{ arbitrary: taintedText(field.text).map(jsonString), weight: 3 }] : []),
    { arbitrary: hostileJsonValue, weight: 2 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );

const pollutionEntries = fc.array(
  fc.tuple(fc.constantFrom(...POLLUTION_KEYS), fc.constantFrom('{"isAdmin":true}', '{"prototype":{"isAdmin":true}}', "null", '"x"', "[1]")),
  { maxLength: 2 },
);

/**
 * The object a route reads, valid but for one or two fields gone wrong (so each fault reaches the
 * code behind validation alone), with prototype-pollution keys before or after.
 */
function hostileJsonObject(fields: JsonFields): fc.Arbitrary<string> {
  const names = Object.keys(fields);
  const broken: fc.Arbitrary<string[]> = names.length === 0 ? fc.constant([]) : fc.uniqueArray(fc.constantFrom(...names), { maxLength: 2 });
  return fc
    .tuple(
      fc.tuple(...names.map((name) => validJson(fields[name]!))),
      fc.tuple(...names.map((name) => brokenJson(fields[name]!))),
      broken,
      pollutionEntries,
      fc.boolean(),
    )
    .map(([valid, wrong, brokenNames, pollution, pollutionFirst]) => {
      const named = names.flatMap((name, index) => {
        const value = brokenNames.includes(name) ? wrong[index] : valid[index];
        return value === undefined ? [] : [[name, value] as const];
      });
      const entries = pollutionFirst ? [...pollution, ...named] : [...named, ...pollution];
      return `{${entries.map(([key, value]) => `${jsonString(key)}:${value}`).join(",")}}`;
    });
}

/** JSON text that is not JSON: cut off, unquoted, trailing commas, comments, stray bytes. */
const malformedJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", " ", "{", "}", "[", "{\"a\":}", "{a:1}", "{'a':1}", "{\"a\":1,}", "[1,]", "{\"a\":1}/*x*/", "NaN", "undefined", "\u0000", "{\"a\":\"\\x41\"}", "{\"a\":\"\\u12\"}", "\"just a string\"", "42", "null", "true", "{\"a\":1}{\"b\":2}", "\uFEFF{}"),
  hostileJsonValue.chain((text) => fc.nat(text.length).map((cut) => text.slice(0, cut))),
  hostileText,
);

/** A JSON-ish body as text: a well-shaped object for the route, any JSON value, or broken JSON. */
function hostileJsonBody(fields: JsonFields): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: hostileJsonObject(fields), weight: 6 },
    { arbitrary: hostileJsonValue, weight: 2 },
    { arbitrary: malformedJsonText, weight: 2 },
  );
}

// ---------------------------------------------------------------- paths and query strings

/**
 * A string as it goes on the wire in a request target: printable ASCII stays raw (so "../", "%zz"
 * and "?" arrive as typed), everything else is percent-encoded as UTF-8 (a lone surrogate as U+FFFD).
 */
export function onTheWire(text: string): string {
  let wire = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    wire += code > 0x20 && code < 0x7f ? char : [...Buffer.from(char, "utf8")].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
  }
  return wire;
}

/** Path ids that are not ids: negative, huge, floats, traversal, bad percent-encoding, very long. */
export const hostileIdText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("-1", "0", "-0", "1.5", "1e3", "0x1", "+1", " 1", "1 ", "00001", "NaN", "Infinity", "2147483647", "2147483648", "999999999", "9999999999", "１", "١"),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom("..", "../..", "..%2F..%2Fetc%2Fpasswd", "%2e%2e%2f%2e%2e%2f", "..\\..\\windows", "%00", "1%00", "%", "%zz", "%C0%AE", "%FF%FE", "%E2%80%AE", "1;drop table users", "1/../1"),
  fc.constantFrom(1_000, 9_000).map((count) => "9".repeat(count)),
  hostileText,
);

type QueryEntry = readonly [key: string, value: string];

/** Query strings with repeated keys, bracket arrays and objects, pollution keys and huge values. */
export function hostileQuery(keys: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const known = Object.entries(keys);
  const goodEntry: fc.Arbitrary<QueryEntry> =
    known.length > 0 ? fc.constantFrom(...known).chain(([key, good]) => good.map((value) => [key, value] as const)) : fc.constant(["q", "1"] as const);
  const keyName = fc.oneof(
    fc.constantFrom(...(known.length > 0 ? known.map(([key]) => key) : ["q"])),
    fc.constantFrom(...POLLUTION_KEYS, "__proto__[isAdmin]", "constructor[prototype][isAdmin]"),
    hostileText,
  );
  const shapedKey = fc.tuple(keyName, fc.constantFrom("", "[]", "[0]", "[a]", "[a][b]", "[__proto__]")).map(([key, suffix]) => key + suffix);
  const hostileEntry: fc.Arbitrary<QueryEntry> = fc.tuple(shapedKey, fc.oneof(hostileText, hostileIdText, fc.constantFrom(1_000, 7_000).map((count) => "x".repeat(count))));
  return fc
    .array(fc.oneof({ arbitrary: goodEntry, weight: 2 }, { arbitrary: hostileEntry, weight: 2 }), { maxLength: 5 })
    .chain((entries) => fc.tuple(fc.constant(entries), fc.boolean(), fc.constantFrom("&", "&&", ";", "&=&")))
    .map(([entries, duplicateFirst, separator]) => {
      const all = duplicateFirst && entries.length > 0 ? [entries[0]!, ...entries] : entries;
      return all.length === 0 ? "" : `?${all.map(([key, value]) => `${onTheWire(key)}=${onTheWire(value)}`).join(separator)}`;
    });
}

// ---------------------------------------------------------------- multipart bodies

export interface RawBody {
  contentType: string | undefined;
  body: Buffer;
}

/** Small files: real ones the server accepts, and bytes that only look like them. */
export interface FileSamples {
  pdf: Buffer;
  cover: Buffer;
}

const FIELD_NAMES = ["title", "description", "genre", "language", "file", "coverImage"] as const;

function formPart(samples: FileSamples, goodFields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<FormPart> {
  const name = fc.oneof(
    { arbitrary: fc.constantFrom(...FIELD_NAMES), weight: 8 },
    { arbitrary: fc.constantFrom("title[]", "title[a]", "__proto__", "__proto__[isAdmin]", "constructor[prototype][isAdmin]", "file[0]", "x".repeat(65), "", "a[99999999]"), weight: 2 },
    { arbitrary: hostileText.map((text) => text.replace(/["\r\n]/g, "")), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
  const filename = fc.oneof(
    fc.constantFrom("book.pdf", "book.docx", "book.doc", "cover.png", "cover.jpg", "cover.webp", "../../etc/passwd.pdf", "..\\..\\x.pdf", ".pdf", "book.pdf.exe", "book.exe.pdf", "\u202Efdp.exe", "a".repeat(300) + ".pdf", "", "book"),
    hostileText.map((text) => `${text.replace(/["\r\n]/g, "")}.pdf`),
  );
  const content = fc.oneof(
    fc.constantFrom(samples.pdf, samples.cover, Buffer.alloc(0), Buffer.from("%PDF-1.4\n%%EOF"), Buffer.from("<html><script>alert(1)</script></html>"), Buffer.from([0x89, 0x50, 0x4e, 0x47])),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    hostileText.map((text) => Buffer.from(text, "utf8")),
  );
  // Object.hasOwn: a part may well be named "constructor".
  const fieldValue = (field: string) => fc.oneof({ arbitrary: Object.hasOwn(goodFields, field) ? goodFields[field]! : hostileText, weight: 3 }, { arbitrary: hostileText, weight: 2 });
  return name.chain((partName) => {
    const isFile = partName === "file" || partName === "coverImage";
    return fc.record({
      name: fc.constant(partName),
      filename: isFile ? filename : fc.option(filename, { nil: undefined, freq: 8 }),
      contentType: fc.option(fc.constantFrom("application/pdf", "image/png", "text/html", "application/octet-stream", "text/plain; charset=utf-16le", "multipart/mixed; boundary=inner"), { nil: undefined }),
      content: isFile ? content : fieldValue(partName ?? "").map((value) => Buffer.from(value, "utf8")),
    });
  });
}

/** Ways to break an otherwise complete form body, as [label, damage]. */
const bodyDamage: fc.Arbitrary<(body: Buffer, boundary: string) => Buffer> = fc.oneof(
  { arbitrary: fc.constant((body: Buffer) => body), weight: 12 },
  fc.double({ min: 0, max: 1, noNaN: true }).map((fraction) => (body: Buffer) => body.subarray(0, Math.floor(body.length * fraction))),
  fc.constant((body: Buffer, boundary: string) => body.subarray(0, body.length - `--${boundary}--\r\n`.length)),
  fc.constant((body: Buffer) => Buffer.from(body.toString("latin1").replace(/\r\n/g, "\n"), "latin1")),
  fc.constant((body: Buffer) => Buffer.from(body.toString("latin1").replace(/\r\n\r\n/, "\r\n"), "latin1")),
  fc.constant((body: Buffer, boundary: string) => Buffer.from(body.toString("latin1").replace(`--${boundary}\r\n`, `--${boundary}\r\nX-Garbage\r\n: \u00ff\r\n`), "latin1")),
  fc.constant((body: Buffer, boundary: string) => Buffer.from(body.toString("latin1").replace(`--${boundary}\r\nContent-Disposition`, `--${boundary}\r\nContent-Dispositio`), "latin1")),
  fc.constant((body: Buffer) => Buffer.concat([Buffer.from("preamble garbage\r\n"), body, Buffer.from("epilogue garbage")])),
);

const boundaries = fc.oneof(
  { arbitrary: fc.constant("plumeBoundary42"), weight: 6 },
  fc.constantFrom("x", "-".repeat(70), "b".repeat(200), "with space", "quote\"d", "ü-boundary"),
);

/** Which boundary the Content-Type names, against the one the body uses. */
const contentTypeFor = (boundary: string) =>
  fc.oneof(
    { arbitrary: fc.constant(`multipart/form-data; boundary=${boundary}`), weight: 16 },
    fc.constantFrom(
      `multipart/form-data; boundary="${boundary}"`,
      "multipart/form-data",
      "multipart/form-data; boundary=",
      "multipart/form-data; boundary=other",
      `multipart/mixed; boundary=${boundary}`,
      `multipart/form-data; boundary=${boundary}; charset=utf-16`,
      `multipart/form-data; boundary=${boundary}; boundary=second`,
      "application/json",
      "application/x-www-form-urlencoded",
      "text/plain",
    ),
    fc.constant(undefined),
  );

/** A book form that would be accepted, with one thing changed: a part dropped, repeated, made hostile, or one added. */
function nearlyValidForm(samples: FileSamples, goodFields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<FormPart[]> {
  const textPart = (name: string) => (goodFields[name] ?? fc.constant("x")).map((value): FormPart => ({ name, content: Buffer.from(value, "utf8") }));
  const filePart = fc.constantFrom<FormPart>({ name: "file", filename: "book.pdf", contentType: "application/pdf", content: samples.pdf });
  const coverPart = fc.option(fc.constantFrom<FormPart>({ name: "coverImage", filename: "cover.png", contentType: "image/png", content: samples.cover }), { nil: undefined, freq: 3 });
  const form = fc
    .tuple(textPart("title"), textPart("description"), textPart("genre"), textPart("language"), filePart, coverPart)
    .map((parts) => parts.filter((part): part is FormPart => part !== undefined));
  const change = fc.oneof(
    { arbitrary: fc.constant((parts: FormPart[]) => parts), weight: 3 },
    fc.nat().map((at) => (parts: FormPart[]) => parts.filter((_, index) => index !== at % parts.length)),
    fc.nat().map((at) => (parts: FormPart[]) => [...parts, parts[at % parts.length]!]),
    fc.tuple(fc.nat(), formPart(samples, goodFields)).map(([at, hostile]) => (parts: FormPart[]) => parts.map((part, index) => (index === at % parts.length ? { ...hostile, name: part.name } : part))),
    fc.array(formPart(samples, goodFields), { minLength: 1, maxLength: 12 }).map((extra) => (parts: FormPart[]) => [...parts, ...extra]),
    fc.constant((parts: FormPart[]) => [...parts].reverse()),
  );
  return fc.tuple(form, change).map(([parts, changed]) => changed(parts));
}

/** Book forms, whole and broken: missing, repeated, misnamed and extra parts; bad boundaries; cut-off bodies. */
export function hostileMultipart(samples: FileSamples, goodFields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<RawBody> {
  const parts = fc.oneof({ arbitrary: nearlyValidForm(samples, goodFields), weight: 2 }, { arbitrary: fc.array(formPart(samples, goodFields), { maxLength: 20 }), weight: 1 });
  return fc.tuple(parts, boundaries, bodyDamage).chain(([formParts, boundary, damage]) =>
    contentTypeFor(boundary).map((contentType) => ({ contentType, body: damage(multipartBody(formParts, boundary), boundary) })),
  );
}

/** A body of any kind to a route that expects JSON or nothing. */
export function anyBody(jsonFields: JsonFields, samples: FileSamples): fc.Arbitrary<RawBody | undefined> {
  const jsonTypes = fc.constantFrom("application/json", "application/json; charset=utf-8", "application/json; charset=utf-16", "application/json; charset=latin1", "application/vnd.api+json", "text/plain", undefined);
  return fc.oneof(
    { arbitrary: fc.tuple(hostileJsonBody(jsonFields), fc.oneof({ arbitrary: fc.constant("application/json"), weight: 5 }, jsonTypes)).map(([text, contentType]) => ({ contentType, body: Buffer.from(text, "utf8") })), weight: 8 },
    { arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ contentType: "application/json", body: Buffer.from(bytes) })), weight: 1 },
    { arbitrary: fc.constant({ contentType: "application/json", body: Buffer.alloc(70 * 1024, 0x20) }), weight: 1 },
    { arbitrary: hostileMultipart(samples, {}), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

/** Headers that change how a body is read: compression the body does not have, a bogus session cookie. */
export const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { arbitrary: fc.constant({}), weight: 8 },
  fc.constantFrom<Record<string, string>>(
    { "Content-Encoding": "gzip" },
    { "Content-Encoding": "br" },
    { "Content-Encoding": "compress" },
    { "Accept-Encoding": "gzip;q=2, *;q=-1, br;q=NaN" },
    { Accept: "text/html" },
    { Cookie: "plume.sid=s%3Aforged.signature" },
    { Cookie: "plume.sid=%" },
    { Cookie: "plume.sid=a; plume.sid=b" },
    { "X-Forwarded-For": "::1, 999.1.1.1, x" },
  ),
);
