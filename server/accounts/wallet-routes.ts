import { type WalletConnectInput, walletConnectSchema } from "../../shared/wallet-schemas.ts";
import { presentCurrentUser } from "./present-user.ts";
import { connectWallet } from "./wallet-service.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";

interface WalletRoutesDeps {
  db: Db;
  adminEmail: string | undefined;
  /** Called after a wallet is saved, so payments that were waiting for it go out now. */
  onPaymentsOwed: () => void;
}

export function walletRoutes({ db, adminEmail, onPaymentsOwed }: WalletRoutesDeps): GuardedRouter {
  return new GuardedRouter("/api/wallet", adminEmail).post("/connect", validate("body", walletConnectSchema), async (req, res) => {
    const user = await connectWallet(db, req.user!, (res.locals.body as WalletConnectInput).walletAddress);
    onPaymentsOwed();
    res.json(presentCurrentUser(user, adminEmail));
  });
}
