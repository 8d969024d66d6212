import { parseUnits } from "ethers";
import { z } from "zod";
import { deployPme } from "../server/chain/local-chain.ts";

/**
 * `npm run chain:deploy`: deploys PME to the chain at RPC_URL, minting the supply to the deployer
 * (the payout hot wallet), and prints PME_TOKEN_ADDRESS and PME_DEPLOY_BLOCK (where the
 * reconciliation starts reading: docs/decisions/0024).
 */
const env = z
  .object({
    RPC_URL: z.url({ protocol: /^https?$/ }),
    PAYOUT_PRIVATE_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex key"),
    PME_INITIAL_SUPPLY: z.string().regex(/^\d+$/, "must be a whole number of PME").default("1000000"),
  })
  .safeParse(process.env);
if (!env.success) {
  const issue = env.error.issues[0]!;
  console.error(`Invalid setting ${String(issue.path[0])}: ${issue.message}`);
  process.exit(1);
}
const { address, block } = await deployPme(env.data.RPC_URL, env.data.PAYOUT_PRIVATE_KEY, parseUnits(env.data.PME_INITIAL_SUPPLY, 18));
console.log(`PME_TOKEN_ADDRESS=${address}\nPME_DEPLOY_BLOCK=${block}`);
