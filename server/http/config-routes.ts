import type { PublicConfig } from "../../shared/wallet.ts";
import type { ChainSettings, RewardSettings } from "../config.ts";
import { GuardedRouter } from "./access.ts";

/** GET /api/config: public settings only (never the RPC endpoint of the server or the hot wallet key). */
interface ConfigRoutesDeps {
  productName: string;
  contactEmail: string | undefined;
  chain: ChainSettings;
  rewards: RewardSettings;
  countedPerIpPerBookPerDay: number;
  adminEmail: string | undefined;
}

export function configRoutes({ productName, contactEmail, chain, rewards, countedPerIpPerBookPerDay, adminEmail }: ConfigRoutesDeps): GuardedRouter {
  const body: PublicConfig = {
    productName,
    contactEmail: contactEmail ?? null,
    // The screens advertise the offer only while it lasts, so they need the configured end, not the default;
    // the help page states the per-address rule with the number in force.
    rewards: { promoCutoff: rewards.promoCutoff.toISOString(), countedPerAddressPerDay: countedPerIpPerBookPerDay },
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
  return new GuardedRouter("/api/config", adminEmail).get("/", (_req, res) => {
    res.json(body);
  });
}
