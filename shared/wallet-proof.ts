/**
 * Sign-In with Ethereum (EIP-4361) messages, built in the browser and read back on the server with
 * one strict grammar: only the lines Plume writes, in their order (docs/decisions/0035-wallet-proof.md).
 */
export interface WalletProofMessage {
  /** The host the page was served from (with its port, if any). */
  domain: string;
  /** EIP-55 checksummed. */
  address: string;
  /** One line, in the reader's language; no line breaks. */
  statement: string;
  uri: string;
  chainId: number;
  nonce: string;
  /** ISO 8601 (RFC 3339) UTC time, e.g. 2026-11-26T04:00:00.000Z. */
  issuedAt: string;
}

/** The nonce the server hands out: 32 hex digits (EIP-4361 asks for at least 8 alphanumerics). */
export const WALLET_PROOF_NONCE = /^[0-9a-f]{32}$/;

export function buildWalletProofMessage(message: WalletProofMessage): string {
  return [
    `${message.domain} wants you to sign in with your Ethereum account:`,
    message.address,
    "",
    message.statement,
    "",
    `URI: ${message.uri}`,
    "Version: 1",
    `Chain ID: ${message.chainId}`,
    `Nonce: ${message.nonce}`,
    `Issued At: ${message.issuedAt}`,
  ].join("\n");
}

const GRAMMAR = new RegExp(
  [
    "^(?<domain>[A-Za-z0-9.-]+(?::[0-9]{1,5})?) wants you to sign in with your Ethereum account:",
    "(?<address>0x[0-9a-fA-F]{40})",
    "",
    "(?<statement>[^\\n]+)",
    "",
    "URI: (?<uri>[^\\s]+)",
    "Version: 1",
    "Chain ID: (?<chainId>[1-9][0-9]{0,15})",
    "Nonce: (?<nonce>[0-9a-f]{32})",
    "Issued At: (?<issuedAt>[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{1,9})?Z)$",
  ].join("\\n"),
);

/** The message's fields, or null when it is not exactly a message of the shape above. */
export function parseWalletProofMessage(text: string): WalletProofMessage | null {
  const groups = GRAMMAR.exec(text)?.groups;
  if (!groups) return null;
  const chainId = Number(groups.chainId);
  if (!Number.isSafeInteger(chainId) || Number.isNaN(Date.parse(groups.issuedAt!))) return null;
  return {
    domain: groups.domain!,
    address: groups.address!,
    statement: groups.statement!,
    uri: groups.uri!,
    chainId,
    nonce: groups.nonce!,
    issuedAt: groups.issuedAt!,
  };
}
