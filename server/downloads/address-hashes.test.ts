import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ADDRESS_HASH_KEPT_MS, COUNTING_WINDOW_MS, addressHasherFor } from "./address-hashes.ts";

const SECRET = "a-session-secret-of-at-least-32-characters";

describe("the keyed hash of a download's address (docs/decisions/0049)", () => {
  it("is the same for one address under one secret, on any server: 64 hex characters", () => {
    const hash = addressHasherFor(SECRET)("192.0.2.7");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(addressHasherFor(SECRET)("192.0.2.7")).toBe(hash);
    expect(addressHasherFor(SECRET)("192.0.2.8")).not.toBe(hash);
    expect(addressHasherFor(SECRET)("2001:db8:1:2::/64")).not.toBe(hash);
  });

  it("cannot be made without the key: neither a bare SHA-256 nor another secret gives it, nor the secret used as the key", () => {
    const hash = addressHasherFor(SECRET)("192.0.2.7");
    expect(createHash("sha256").update("192.0.2.7").digest("hex")).not.toBe(hash);
    expect(addressHasherFor(`${SECRET}x`)("192.0.2.7")).not.toBe(hash);
    expect(createHash("sha256").update(SECRET).update("192.0.2.7").digest("hex")).not.toBe(hash);
  });

  it("is kept a week: the longer of the cap's day and the admin's look-back", () => {
    expect(COUNTING_WINDOW_MS).toBe(24 * 60 * 60 * 1000);
    expect(ADDRESS_HASH_KEPT_MS).toBe(7 * COUNTING_WINDOW_MS);
  });
});
