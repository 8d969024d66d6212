import { authorIdSchema } from "../../shared/book-schemas.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";
import { readAuthorPayments, readPayoutSla } from "./payments-service.ts";

/** An author's payments with their timelines, for that author and the admin; the payout SLA, for the admin. */
export function paymentsRoutes({ db, adminEmail }: { db: Db; adminEmail: string | undefined }): GuardedRouter {
  return new GuardedRouter("/api", adminEmail)
    .get("/authors/:id/payments", validate("params", authorIdSchema), async (req, res) => {
      res.json(await readAuthorPayments(db, req.user!, (res.locals.params as { id: string }).id, adminEmail, new Date()));
    })
    .get("/admin/payout-sla", async (_req, res) => {
      res.json(await readPayoutSla(db, new Date()));
    });
}
