import { loadConfig } from "../server/config.ts";
import { LOCAL_CHAIN_ID, startLocalChain } from "../server/chain/local-chain.ts";

/**
 * `npm run chain`: the embedded default's local chain, standalone. A server started with the
 * printed settings uses it, and it outlives server restarts (it forgets everything when it stops).
 */
const { chain: chainConfig } = loadConfig();
const port = chainConfig.kind === "local" ? chainConfig.port : 8545;
const chain = await startLocalChain(port);
console.log(`RPC_URL=${chain.rpcUrl}`);
console.log(`CHAIN_ID=${LOCAL_CHAIN_ID}`);
console.log(`PME_TOKEN_ADDRESS=${chain.tokenAddress}`);
console.log(`BATCH_PAYER_ADDRESS=${chain.batchPayerAddress}`);
// Hardhat's first test account: public knowledge, worthless outside this local chain.
console.log(`PAYOUT_PRIVATE_KEY=${chain.payoutPrivateKey}`);
console.log("Local chain running with PME deployed. Ctrl-C stops it.");
// A signal handler's promise is awaited by no one: a failed stop is reported and ends the process with 1.
const stop = () => {
  chain.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`The local chain did not stop cleanly: ${(error as Error).message}`);
      process.exit(1);
    },
  );
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
