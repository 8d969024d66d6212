import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./passwords.ts";

describe("passwords", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(hash).not.toContain("correct horse");
    await expect(verifyPassword("correct horse", hash)).resolves.toBe(true);
    await expect(verifyPassword("correct horsf", hash)).resolves.toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });

  it("treats a malformed stored value as a mismatch", async () => {
    await expect(verifyPassword("x", "plaintext")).resolves.toBe(false);
  });

  it("accepts the same password typed in another Unicode form", async () => {
    const hash = await hashPassword("caf\u00e9");
    await expect(verifyPassword("cafe\u0301", hash)).resolves.toBe(true);
  });
});
