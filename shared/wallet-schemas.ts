import { z } from "zod";

/**
 * The shape of an Ethereum address. The EIP-55 checksum of a mixed-case address is verified
 * on the server (it needs keccak-256, which the browser bundle does without).
 */
export const walletConnectSchema = z.object({
  walletAddress: z
    .string({ error: "validation.walletInvalid" })
    .trim()
    .regex(/^0x[0-9a-fA-F]{40}$/, "validation.walletInvalid"),
});
export type WalletConnectInput = z.infer<typeof walletConnectSchema>;
