import { authorIdSchema } from "../../shared/book-schemas.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";
import { readAuthorPayments } from "./payments-service.ts";

/** An author's payments, for that author and the admin. */
export function paymentsRoutes({ db, adminEmail }: { db: Db; adminEmail: string | undefined }): GuardedRouter {
  return new GuardedRouter("/api", adminEmail).get("/authors/:id/payments", validate("params", authorIdSchema), async (req, res) => {
    res.json(await readAuthorPayments(db, req.user!, (res.locals.params as { id: string }).id, adminEmail));
  });
}
