import { describe, expect, it } from "vitest";
import { type WalletProofMessage, buildWalletProofMessage, parseWalletProofMessage } from "./wallet-proof.ts";

const FIELDS: WalletProofMessage = {
  domain: "plume.test:5000",
  address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  statement: "Associer ce portefeuille à mon compte Plume.",
  uri: "https://plume.test:5000/dashboard",
  chainId: 137,
  nonce: "0123456789abcdef0123456789abcdef",
  issuedAt: "2026-11-26T04:00:00.000Z",
};

describe("Sign-In with Ethereum messages", () => {
  it("writes the EIP-4361 lines in their order, and reads them back", () => {
    const message = buildWalletProofMessage(FIELDS);
    expect(message.split("\n")).toEqual([
      "plume.test:5000 wants you to sign in with your Ethereum account:",
      FIELDS.address,
      "",
      FIELDS.statement,
      "",
      "URI: https://plume.test:5000/dashboard",
      "Version: 1",
      "Chain ID: 137",
      "Nonce: 0123456789abcdef0123456789abcdef",
      "Issued At: 2026-11-26T04:00:00.000Z",
    ]);
    expect(parseWalletProofMessage(message)).toEqual(FIELDS);
  });

  it.each([
    ["another version", (text: string) => text.replace("Version: 1", "Version: 2")],
    ["an extra field", (text: string) => `${text}\nExpiration Time: 2030-01-01T00:00:00Z`],
    ["a statement over two lines", (text: string) => text.replace(FIELDS.statement, "one\ntwo")],
    ["a missing statement", (text: string) => text.replace(`\n${FIELDS.statement}\n`, "\n")],
    ["a chain id of zero", (text: string) => text.replace("Chain ID: 137", "Chain ID: 0")],
    ["a short nonce", (text: string) => text.replace(FIELDS.nonce, "abc")],
    ["a local issue time", (text: string) => text.replace("04:00:00.000Z", "04:00:00+01:00")],
    ["an impossible date", (text: string) => text.replace("2026-11-26", "2026-13-45")],
    ["Windows line ends", (text: string) => text.replaceAll("\n", "\r\n")],
    ["a leading space", (text: string) => ` ${text}`],
  ])("refuses %s", (_label, change) => {
    expect(parseWalletProofMessage(change(buildWalletProofMessage(FIELDS)))).toBeNull();
  });
});
