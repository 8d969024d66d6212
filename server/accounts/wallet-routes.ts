import type { Request } from "express";
import { type WalletChallengeInput, type WalletConnectInput, walletChallengeSchema, walletConnectSchema } from "../../shared/wallet-schemas.ts";
import { presentCurrentUser } from "./present-user.ts";
import { type PendingWalletProof, connectWallet, issueWalletChallenge } from "./wallet-service.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";

declare module "express-session" {
  interface SessionData {
    /** The nonce of docs/product.md#wallet waiting for its signature. */
    walletProof?: PendingWalletProof;
  }
}

interface WalletRoutesDeps {
  db: Db;
  adminEmail: string | undefined;
  /** The only site a signed message may name (server/http/site-origin.ts), never the request's Host. */
  origin: string;
  chainId: number;
  /** The hot wallet and the token contract: never an author's payee. */
  refusedAddresses: string[];
  /** Called after a wallet is saved, so payments that were waiting for it go out now. */
  onPaymentsOwed: () => void;
}

/** Writes the session before answering, so the next call (the signed message) finds the nonce, or finds it spent. */
const saveSession = (req: Request) =>
  new Promise<void>((resolve, reject) => req.session.save((error) => (error ? reject(error as Error) : resolve())));

export function walletRoutes({ db, adminEmail, origin, chainId, refusedAddresses, onPaymentsOwed }: WalletRoutesDeps): GuardedRouter {
  return new GuardedRouter("/api/wallet", adminEmail)
    .post("/nonce", validate("body", walletChallengeSchema), async (req, res) => {
      const { walletAddress } = res.locals.body as WalletChallengeInput;
      const { challenge, pending } = await issueWalletChallenge(db, req.user!, walletAddress, { chainId, refusedAddresses, now: new Date() });
      req.session.walletProof = pending;
      await saveSession(req);
      res.json(challenge);
    })
    .post("/connect", validate("body", walletConnectSchema), async (req, res) => {
      // Single use: the nonce is spent by this attempt, whether it succeeds or not.
      const pending = req.session.walletProof;
      delete req.session.walletProof;
      await saveSession(req);
      const context = { origin, chainId, refusedAddresses, now: new Date() };
      const user = await connectWallet(db, req.user!, res.locals.body as WalletConnectInput, pending, context);
      onPaymentsOwed();
      res.json(presentCurrentUser(user, adminEmail));
    });
}
