import { z } from "zod";

/**
 * Asking for a nonce names the account, so the server can refuse it before the wallet is asked to
 * sign, and give back its checksummed form: the EIP-55 checksum needs keccak-256, which the browser
 * bundle does without.
 */
export const walletChallengeSchema = z.object({
  walletAddress: z
    .string({ error: "validation.walletInvalid" })
    .trim()
    .regex(/^0x[0-9a-fA-F]{40}$/, "validation.walletInvalid"),
});
export type WalletChallengeInput = z.infer<typeof walletChallengeSchema>;

export interface WalletChallenge {
  nonce: string;
  /** The account, checksummed: the form the message must carry. */
  walletAddress: string;
  chainId: number;
  expiresAt: string;
}

export const walletConnectSchema = z.object({
  message: z.string({ error: "walletProof.errors.invalid" }).max(2000, "walletProof.errors.invalid"),
  signature: z
    .string({ error: "walletProof.errors.invalid" })
    .regex(/^0x[0-9a-fA-F]{130}$/, "walletProof.errors.invalid"),
});
export type WalletConnectInput = z.infer<typeof walletConnectSchema>;
