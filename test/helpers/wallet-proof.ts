import { type BaseWallet, Wallet } from "ethers";
import type { Test } from "supertest";
import type TestAgent from "supertest/lib/agent.js";
import { buildWalletProofMessage } from "../../shared/wallet-proof.ts";
import type { WalletChallenge } from "../../shared/wallet-schemas.ts";
import { TEST_ORIGIN } from "./test-app.ts";

/** A key that signs as a wallet does (personal_sign). */
export type WalletKey = Pick<BaseWallet, "address" | "signMessage">;

/** The test app's site (PUBLIC_URL); the signed message names it, as a browser's page on it would. */
const WALLET_TEST_HOST = new URL(TEST_ORIGIN).host;

export interface SignOptions {
  /** The host the message names (the test app's site's by default), over http as the test app's site is. */
  host?: string;
  chainId?: number;
  issuedAt?: Date;
  /** Signs with this key instead of the account's own. */
  signer?: WalletKey;
}

/** Asks for a nonce for the wallet's address and answers with the message that wallet signs. */
export async function signedWalletProof(post: (path: string) => Test, wallet: WalletKey, options: SignOptions = {}) {
  const host = options.host ?? WALLET_TEST_HOST;
  const challenge = (await post("/api/wallet/nonce").send({ walletAddress: wallet.address.toLowerCase() }).expect(200)).body as WalletChallenge;
  const message = buildWalletProofMessage({
    domain: host,
    address: challenge.walletAddress,
    statement: "Connect this wallet to receive your Plume payments.",
    uri: `http://${host}/dashboard`,
    chainId: options.chainId ?? challenge.chainId,
    nonce: challenge.nonce,
    issuedAt: (options.issuedAt ?? new Date()).toISOString(),
  });
  const signature = await (options.signer ?? wallet).signMessage(message);
  return { message, signature };
}

/** Connects a wallet the way a browser does: nonce, signed message, save. Returns the address. */
export async function connectProvenWallet(agent: TestAgent<Test>, wallet: WalletKey = Wallet.createRandom()) {
  const proof = await signedWalletProof((path) => agent.post(path), wallet);
  await agent.post("/api/wallet/connect").send(proof).expect(200);
  return wallet.address;
}
