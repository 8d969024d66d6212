import { describe, expect, it } from "vitest";
import { UNSUBSCRIBE_TOKEN } from "../../shared/follows.ts";
import { unsubscribeTokensFor } from "./unsubscribe-tokens.ts";

const ID = "0b6a3c1e-4f7d-4e8a-9c2b-7d1e5f3a9b22";

describe("unsubscribe tokens", () => {
  const tokens = unsubscribeTokensFor("a-secret-".padEnd(40, "x"));

  it("name the account they were made for, in the shape the links check", () => {
    const token = tokens.tokenFor(ID.toUpperCase());
    expect(token).toMatch(UNSUBSCRIBE_TOKEN);
    expect(token.startsWith(`${ID}.`)).toBe(true);
    expect(tokens.userOf(token)).toBe(ID);
  });

  it("refuse another account's id, a changed signature, another secret's and nonsense", () => {
    const token = tokens.tokenFor(ID);
    const signature = token.split(".")[1]!;
    expect(tokens.userOf(`00000000-0000-4000-8000-000000000000.${signature}`)).toBeUndefined();
    expect(tokens.userOf(`${ID}.${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`)).toBeUndefined();
    expect(unsubscribeTokensFor("another-secret".padEnd(40, "y")).userOf(token)).toBeUndefined();
    for (const nonsense of ["", ID, `${ID}.`, `${ID}.${"A".repeat(42)}`, `${token}x`]) expect(tokens.userOf(nonsense)).toBeUndefined();
  });
});
