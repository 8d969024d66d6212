import { describe, expect, it } from "vitest";
import { loginSchema, registerSchema } from "./auth.ts";
import { bookFieldsSchema, catalogQuerySchema } from "./book-schemas.ts";
import { isMultiLineText, isSingleLineText } from "./typed-text.ts";

const book = { title: "Mañana en París", description: "Una novela.", genre: "novela", language: "es" };
const account = { firstName: "Ana", lastName: "García", username: "ana", password: "secret-pass", confirmPassword: "secret-pass" };
const refusalOf = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  result.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);

describe("typed text", () => {
  it("accepts letters of any script, emoji, combining marks and bidi marks", () => {
    for (const text of ["Mañana", "日本語", "👩‍👩‍👧‍👦", "e\u0301", "\u202Eabc", "مرحبا"]) expect(isSingleLineText(text)).toBe(true);
  });

  it.each([["NUL", "a\u0000b"], ["a line break", "a\nb"], ["DEL", "a\u007Fb"], ["a C1 control", "a\u0085b"], ["a lone high surrogate", "a\uD800b"], ["a lone low surrogate", "\uDFFF"]])(
    "refuses %s on one line",
    (_label, text) => expect(isSingleLineText(text)).toBe(false),
  );

  it("lets several lines keep their tabs and line breaks, but not NUL or a broken pair", () => {
    expect(isMultiLineText("one\r\ntwo\tthree")).toBe(true);
    expect(isMultiLineText("one\u0000")).toBe(false);
    expect(isMultiLineText("one\uDC00")).toBe(false);
  });
});

// Regressions found by server/fuzz.api.test.ts: each of these answered 500, as PostgreSQL refuses NUL in text.
describe("schemas refuse text PostgreSQL cannot store, with validation.invalid", () => {
  it("the book title and description", () => {
    expect(refusalOf(bookFieldsSchema.safeParse({ ...book, title: "T\u0000" }))).toEqual(["title: validation.invalid"]);
    expect(refusalOf(bookFieldsSchema.safeParse({ ...book, description: "D\u0000" }))).toEqual(["description: validation.invalid"]);
    expect(bookFieldsSchema.safeParse({ ...book, description: "Line one.\nLine two." }).success).toBe(true);
  });

  it("the catalog search", () => {
    expect(refusalOf(catalogQuerySchema.safeParse({ search: "\u0000a" }))).toEqual(["search: validation.invalid"]);
  });

  it("the sign-in identifier and the names of a new account", () => {
    expect(refusalOf(loginSchema.safeParse({ username: "ab\u0000c", password: "secret-pass" }))).toEqual(["username: validation.invalid"]);
    expect(refusalOf(registerSchema.safeParse({ ...account, firstName: "A\u0000" }))).toEqual(["firstName: validation.invalid"]);
    expect(refusalOf(registerSchema.safeParse({ ...account, lastName: "G\uD800" }))).toEqual(["lastName: validation.invalid"]);
  });
});
