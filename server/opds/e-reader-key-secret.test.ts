import { describe, expect, it } from "vitest";
import { E_READER_KEY_BITS, canonicalEReaderKey, hashEReaderKey, newEReaderKey } from "./e-reader-key-secret.ts";

describe("e-reader key secrets", () => {
  it("are four groups of four unambiguous symbols, 80 random bits", () => {
    expect(E_READER_KEY_BITS).toBe(80);
    const keys = Array.from({ length: 2000 }, newEReaderKey);
    for (const key of keys) expect(key).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(new Set(keys).size).toBe(keys.length);
    // Every symbol of the alphabet turns up: no bit of the random bytes is lost on the way.
    expect(new Set(keys.join("").replaceAll("-", "")).size).toBe(32);
  });

  it("reads a key however an e-ink keyboard typed it", () => {
    expect(canonicalEReaderKey("7KQ2-M9XD-4T0P-HB3W")).toBe("7KQ2M9XD4T0PHB3W");
    expect(canonicalEReaderKey(" 7kq2 m9xd 4tOp hb3w ")).toBe("7KQ2M9XD4T0PHB3W");
    expect(canonicalEReaderKey("1111-iiii-LLLL-1111")).toBe("1111111111111111");
  });

  it("refuses what cannot be a key", () => {
    for (const typed of ["", "7KQ2-M9XD-4T0P", "7KQ2-M9XD-4T0P-HB3W-0", "UUUU-M9XD-4T0P-HB3W", "7KQ2_M9XD_4T0P_HB3W", "7KQ2-M9XD-4T0P-HB3É"]) {
      expect(canonicalEReaderKey(typed), typed).toBeUndefined();
    }
  });

  it("is kept as the SHA-256 of its canonical form", () => {
    expect(hashEReaderKey("7KQ2M9XD4T0PHB3W")).toMatch(/^[0-9a-f]{64}$/);
    expect(hashEReaderKey(canonicalEReaderKey("7kq2-m9xd-4t0p-hb3w")!)).toBe(hashEReaderKey("7KQ2M9XD4T0PHB3W"));
  });
});
