import { describe, expect, it } from "vitest";
import { shortAddress } from "./wallet.ts";

describe("shortAddress", () => {
  it("keeps the first 6 characters and those from index 38", () => {
    expect(shortAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).toBe("0x5aAe…eAed");
  });
});
