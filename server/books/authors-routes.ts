import { Router } from "express";
import { authorIdSchema } from "../../shared/book-schemas.ts";
import { listAuthorBooks } from "./books-repository.ts";
import { presentBook } from "./present-book.ts";
import { readAuthorStats } from "../downloads/author-stats-service.ts";
import { isAdmin } from "../accounts/present-user.ts";
import { requireAuth } from "../http/require-auth.ts";
import type { Db } from "../db/client.ts";
import { forbidden } from "../http/errors.ts";
import { validate } from "../http/validate.ts";
import { listAuthorPayments } from "../rewards/payments-repository.ts";

export function authorsRoutes({ db, adminEmail }: { db: Db; adminEmail: string | undefined }): Router {
  const router = Router();
  const authorId = (locals: Record<string, unknown>) => (locals.params as { id: string }).id;

  router.get("/:id/books", validate("params", authorIdSchema), async (_req, res) => {
    res.json((await listAuthorBooks(db, authorId(res.locals))).map(presentBook));
  });

  router.get("/:id/stats", validate("params", authorIdSchema), async (_req, res) => {
    res.json(await readAuthorStats(db, authorId(res.locals), new Date()));
  });

  router.get("/:id/payments", requireAuth, validate("params", authorIdSchema), async (req, res) => {
    const id = authorId(res.locals);
    if (id !== req.user!.id && !isAdmin(req.user!, adminEmail)) throw forbidden("Only the author and the admin can see these payments.");
    res.json(await listAuthorPayments(db, id));
  });

  return router;
}
