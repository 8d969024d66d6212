import { Router } from "express";
import type { PublicConfig } from "../../shared/wallet.ts";
import type { ChainSettings, RewardSettings } from "../config.ts";

/** GET /api/config: public settings only (never the RPC endpoint of the server or the hot wallet key). */
export function configRoutes({ productName, chain, rewards }: { productName: string; chain: ChainSettings; rewards: RewardSettings }): Router {
  const router = Router();
  const body: PublicConfig = {
    productName,
    // The screens advertise the offer only while it lasts, so they need the configured end, not the default.
    rewards: { promoCutoff: rewards.promoCutoff.toISOString() },
    token: {
      address: chain.tokenAddress,
      symbol: "PME",
      decimals: 18,
      chainId: chain.chainId,
      chainName: chain.chainName,
      rpcUrl: chain.publicRpcUrl,
      explorerUrl: chain.explorerUrl,
    },
  };
  router.get("/", (_req, res) => {
    res.json(body);
  });
  return router;
}
