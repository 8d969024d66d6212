import { Router } from "express";
import { authorIdSchema } from "../../../../shared/books.ts";
import { listAuthorBooks } from "../../../books/books-repository.ts";
import { presentBook } from "../../../books/present-book.ts";
import { readAuthorStats } from "../../../books/stats-service.ts";
import type { Db } from "../../../db/client.ts";
import { validate } from "../../../http/validate.ts";

export function authorsRoutes({ db }: { db: Db }): Router {
  const router = Router();
  const authorId = (locals: Record<string, unknown>) => (locals.params as { id: string }).id;

  router.get("/:id/books", validate("params", authorIdSchema), async (_req, res) => {
    res.json((await listAuthorBooks(db, authorId(res.locals))).map(presentBook));
  });

  router.get("/:id/stats", validate("params", authorIdSchema), async (_req, res) => {
    res.json(await readAuthorStats(db, authorId(res.locals), new Date()));
  });

  return router;
}
