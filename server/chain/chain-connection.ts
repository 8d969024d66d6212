import type { ChainConfig, ChainSettings } from "../config.ts";
import { LOCAL_CHAIN_ID, startLocalChain } from "./local-chain.ts";

export interface ChainConnection {
  settings: ChainSettings;
  /** Stops the local chain the server started; nothing for an external chain. */
  stop(): Promise<void>;
}

/** The configured chain, or (embedded default) a fresh local chain with PME deployed. */
export async function connectChain(config: ChainConfig): Promise<ChainConnection> {
  if (config.kind === "external") return { settings: config.settings, stop: async () => {} };
  const local = await startLocalChain(config.port);
  return {
    settings: {
      rpcUrl: local.rpcUrl,
      publicRpcUrl: local.rpcUrl,
      chainId: LOCAL_CHAIN_ID,
      chainName: "Plume local chain",
      tokenAddress: local.tokenAddress,
      payoutPrivateKey: local.payoutPrivateKey,
      confirmations: 1,
      explorerUrl: config.explorerUrl,
    },
    stop: local.stop,
  };
}
