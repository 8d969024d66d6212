import type { PublicConfig } from "../../shared/wallet.ts";
import type { ChainSettings, RewardSettings, WalletConnectSettings } from "../config.ts";
import * as answers from "../openapi/answer-schemas.ts";
import { routeGroup, routesOf } from "./define-route.ts";

export interface ConfigRoutesDeps {
  productName: string;
  contactEmail: string | undefined;
  legalContact: string | undefined;
  /** MAIL_FROM's address (server/mail/mailer.ts senderAddressOf). */
  mailSender: string;
  chain: ChainSettings;
  walletConnect: WalletConnectSettings | undefined;
  rewards: RewardSettings;
  countedPerIpPerBookPerDay: number;
}

/** Public settings only: never the RPC endpoint of the server or the hot wallet key. */
function publicConfigOf({ productName, contactEmail, legalContact, mailSender, chain, walletConnect, rewards, countedPerIpPerBookPerDay }: ConfigRoutesDeps): PublicConfig {
  return {
    productName,
    contactEmail: contactEmail ?? null,
    legalContact: legalContact ?? null,
    // The settings tell a Kindle's owner which sender to approve: the address every mail already shows.
    mailSender,
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
    // A project id is public by design: every dapp's page hands it to WalletConnect's relay.
    walletConnect: walletConnect ? { projectId: walletConnect.projectId, relayUrl: walletConnect.relayUrl } : null,
  };
}

const route = routesOf<ConfigRoutesDeps>();

export const configRoutes = routeGroup("/api/config", [
  route(
    {
      method: "GET",
      path: "/api/config",
      access: "public",
      summary: "Public settings: the product's name, the token and the reward offer",
      tag: "platform",
      answer: { status: 200, description: "The settings.", json: answers.publicConfigSchema },
      errors: [],
    },
    (_call, deps) => publicConfigOf(deps),
  ),
]);
