import { parseUnits } from "ethers";
import { z } from "zod";
import { deployBatchPayer } from "../server/chain/batch-payer.ts";
import { deployPme } from "../server/chain/local-chain.ts";

/**
 * `npm run chain:deploy`: deploys PME to the chain at RPC_URL, minting the supply to the deployer
 * (the payout hot wallet), and its batch payer (docs/decisions/0039); prints PME_TOKEN_ADDRESS,
 * PME_DEPLOY_BLOCK (where the reconciliation starts reading: docs/decisions/0024) and
 * BATCH_PAYER_ADDRESS. With PME_TOKEN_ADDRESS set, deploys the batch payer for that token only.
 */
const env = z
  .object({
    RPC_URL: z.url({ protocol: /^https?$/ }),
    PAYOUT_PRIVATE_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex key"),
    PME_INITIAL_SUPPLY: z.string().regex(/^\d+$/, "must be a whole number of PME").default("1000000"),
    PME_TOKEN_ADDRESS: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address")
      .optional()
      .or(z.literal("").transform(() => undefined)),
  })
  .safeParse(process.env);
if (!env.success) {
  const issue = env.error.issues[0]!;
  console.error(`Invalid setting ${String(issue.path[0])}: ${issue.message}`);
  process.exit(1);
}
const { RPC_URL: rpcUrl, PAYOUT_PRIVATE_KEY: key } = env.data;
let tokenAddress = env.data.PME_TOKEN_ADDRESS;
if (!tokenAddress) {
  const { address, block } = await deployPme(rpcUrl, key, parseUnits(env.data.PME_INITIAL_SUPPLY, 18));
  tokenAddress = address;
  console.log(`PME_TOKEN_ADDRESS=${address}\nPME_DEPLOY_BLOCK=${block}`);
}
console.log(`BATCH_PAYER_ADDRESS=${await deployBatchPayer(rpcUrl, key, tokenAddress)}`);
