import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ChainConfig, ChainSettings } from "../config.ts";
import { LOCAL_CHAIN_ID, type LocalChain, startLocalChain } from "./local-chain.ts";

export interface ChainConnection {
  settings: ChainSettings;
  /** Stops the local chain the server started; nothing for an external chain. */
  stop(): Promise<void>;
}

/**
 * The configured chain, or (embedded default) a fresh local chain with PME deployed, recorded in
 * the data folder so that the next start can stop it if it outlived its server.
 */
export async function connectChain(config: ChainConfig, dataDir: string): Promise<ChainConnection> {
  if (config.kind === "external") return { settings: config.settings, stop: async () => {} };
  mkdirSync(dataDir, { recursive: true });
  const local = await startLocalChain(config.port, { recordIn: join(dataDir, "local-chain.pid") });
  return { settings: localChainSettings(local, { explorerUrl: config.explorerUrl }), stop: local.stop };
}

/** The settings of a local chain, reached at its own address unless another (a proxy in front) is given. */
export function localChainSettings(local: LocalChain, { rpcUrl = local.rpcUrl, explorerUrl = null }: { rpcUrl?: string; explorerUrl?: string | null } = {}): ChainSettings {
  return {
    rpcUrl,
    publicRpcUrl: rpcUrl,
    chainId: LOCAL_CHAIN_ID,
    chainName: null,
    tokenAddress: local.tokenAddress,
    batchPayerAddress: local.batchPayerAddress,
    deployBlock: local.deployBlock,
    payoutPrivateKey: local.payoutPrivateKey,
    confirmations: 1,
    explorerUrl,
  };
}
