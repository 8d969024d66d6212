import type { AccountAsCaller } from "./passport.ts";
import type { Request } from "express";
import { z } from "zod";
import { walletChallengeSchema, walletConnectSchema } from "../../shared/wallet-schemas.ts";
import { presentCurrentUser } from "./present-user.ts";
import { type PendingWalletProof, connectWallet, issueWalletChallenge } from "./wallet-service.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import * as answers from "../openapi/answer-schemas.ts";

declare module "express-session" {
  interface SessionData {
    /** The nonce of docs/product.md#wallet waiting for its signature. */
    walletProof?: PendingWalletProof;
  }
}

export interface WalletRoutesDeps {
  db: Db;
  /** The only site a signed message may name (server/http/site-origin.ts), never the request's Host. */
  origin: string;
  chainId: number;
  /** The hot wallet and the token contract: never an author's payee. */
  refusedAddresses: string[];
  /** Called after a wallet is saved, so payments that were waiting for it go out now. */
  onPaymentsOwed: () => void;
  callerOf: AccountAsCaller;
}

/** Writes the session before answering, so the next call (the signed message) finds the nonce, or finds it spent. */
const saveSession = (req: Request) =>
  new Promise<void>((resolve, reject) => req.session.save((error) => (error ? reject(error as Error) : resolve())));

const route = routesOf<WalletRoutesDeps>();

export const walletRoutes = routeGroup("/api/wallet", [
  route(
    {
      method: "POST",
      path: "/api/wallet/nonce",
      access: "signed-in",
      summary: "A one-time nonce (10 minutes) for a Sign-In with Ethereum message naming this address",
      tag: "accounts",
      body: walletChallengeSchema,
      answer: {
        status: 200,
        description: "The nonce, the address checksummed as the message must carry it, the chain id and when the nonce expires.",
        json: z.object({ nonce: z.string(), walletAddress: z.string(), chainId: z.number().int(), expiresAt: z.string() }),
      },
      errors: [400, 409],
    },
    async ({ body, caller, req }, { db, chainId, refusedAddresses }) => {
      const { challenge, pending } = await issueWalletChallenge(db, caller, body.walletAddress, { chainId, refusedAddresses, now: new Date() });
      req.session.walletProof = pending;
      await saveSession(req);
      return challenge;
    },
  ),
  route(
    {
      method: "POST",
      path: "/api/wallet/connect",
      access: "signed-in",
      summary: "Save the signed-in author's wallet, proven by a signed Sign-In with Ethereum (EIP-4361) message",
      tag: "accounts",
      body: walletConnectSchema,
      answer: { status: 200, description: "The account with its wallet.", json: answers.currentUserSchema },
      errors: [400, 409],
    },
    async ({ body, caller, req }, { db, origin, chainId, refusedAddresses, onPaymentsOwed, callerOf }) => {
      // Single use: the nonce is spent by this attempt, whether it succeeds or not.
      const pending = req.session.walletProof;
      delete req.session.walletProof;
      await saveSession(req);
      const context = { origin, chainId, refusedAddresses, now: new Date() };
      const user = await connectWallet(db, caller, body, pending, context);
      onPaymentsOwed();
      return presentCurrentUser(callerOf(user));
    },
  ),
]);
