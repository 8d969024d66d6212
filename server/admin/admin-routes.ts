import { type FirstBookFlagFix, type FixFirstBookFlagInput, type Reconciliation, fixFirstBookFlagSchema } from "../../shared/admin.ts";
import { fixFirstBookFlag, readAdminOverview, readPaymentDiagnostics } from "./admin-service.ts";
import type { PayoutPolicy, RewardSettings } from "../config.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";

interface AdminRoutesDeps {
  db: Db;
  adminEmail: string | undefined;
  rewards: RewardSettings;
  onPaymentsOwed: () => void;
  payouts: { hotWallet: string; policy: PayoutPolicy; reconcile: () => Promise<Reconciliation> };
  storageQuotaBytes: number;
}

export function adminRoutes({ db, adminEmail, rewards, onPaymentsOwed, payouts, storageQuotaBytes }: AdminRoutesDeps): GuardedRouter {
  return new GuardedRouter("/api/admin", adminEmail)
    .guardAll("admin")
    .get("/overview-debug", async (_req, res) => {
      res.json(await readAdminOverview(db, new Date(), storageQuotaBytes));
    })
    .get("/payment-diagnostics", async (_req, res) => {
      res.json(await readPaymentDiagnostics(db, rewards, payouts, new Date()));
    })
    .post("/fix-first-book-flag", validate("body", fixFirstBookFlagSchema), async (_req, res) => {
      const { bookId, setAsFirstBook } = res.locals.body as FixFirstBookFlagInput;
      const paymentsOwed = await fixFirstBookFlag(db, bookId, setAsFirstBook, rewards);
      if (paymentsOwed > 0) onPaymentsOwed();
      res.json({ bookId, firstBook: setAsFirstBook, paymentsOwed } satisfies FirstBookFlagFix);
    });
}
