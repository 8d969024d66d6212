import { describe, expect, it } from "vitest";
import { HttpError } from "../http/errors.ts";
import { HASHES_AT_ONCE, HASHES_WAITING, hashPassword, passwordHashingLoad, unknownAccountHash, verifyPassword } from "./passwords.ts";

describe("passwords", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(hash).not.toContain("correct horse");
    await expect(verifyPassword("correct horse", hash)).resolves.toBe(true);
    await expect(verifyPassword("correct horsf", hash)).resolves.toBe(false);
  });

  it("hashes a test run's accounts cheaply, and verifies hashes of either cost", async () => {
    const cheap = await hashPassword("correct horse", "test");
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    await expect(verifyPassword("correct horse", cheap)).resolves.toBe(true);
    await expect(verifyPassword("correct horsf", cheap)).resolves.toBe(false);
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

  it("runs at most HASHES_AT_ONCE hashes at once, queues the next ones and refuses those past the queue with 503", async () => {
    // A cheap hash (N=2^10): the queue is what is tested, not the cost.
    const cheap = "scrypt$1024$8$1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5";
    const settled = Promise.allSettled(Array.from({ length: HASHES_AT_ONCE + HASHES_WAITING + 3 }, () => verifyPassword("queued", cheap)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(passwordHashingLoad()).toEqual({ running: HASHES_AT_ONCE, waiting: HASHES_WAITING });

    const results = await settled;
    const refused = results.filter((result) => result.status === "rejected");
    expect(refused).toHaveLength(3);
    for (const { reason } of refused as PromiseRejectedResult[]) {
      expect(reason).toBeInstanceOf(HttpError);
      expect(reason).toMatchObject({ status: 503, code: "server_busy" });
    }
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(HASHES_AT_ONCE + HASHES_WAITING);
    expect(passwordHashingLoad()).toEqual({ running: 0, waiting: 0 });
  });

  // docs/decisions/0054: kept, a refused making answered 503 to every unknown name for good, while known names got 401.
  it("makes the unknown-account hash again once a full queue refused it", async () => {
    const cheap = "scrypt$1024$8$1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5";
    const queue = Promise.allSettled(Array.from({ length: HASHES_AT_ONCE + HASHES_WAITING }, () => verifyPassword("queued", cheap)));
    await expect(unknownAccountHash("test")).rejects.toMatchObject({ status: 503, code: "server_busy" });
    await queue;
    await expect(unknownAccountHash("test")).resolves.toMatch(/^scrypt\$1024\$8\$1\$/);
  });
});
