import { authorIdSchema } from "../../shared/book-schemas.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { notFound } from "../http/errors.ts";
import { validate } from "../http/validate.ts";
import { readAuthorProfile } from "./pages-service.ts";

/** The author page's data: public, and only what a visitor may see (docs/product.md#book-pages). */
export function pagesRoutes({ db, adminEmail }: { db: Db; adminEmail: string | undefined }): GuardedRouter {
  return new GuardedRouter("/api", adminEmail).get("/authors/:id", validate("params", authorIdSchema), async (_req, res) => {
    const profile = await readAuthorProfile(db, (res.locals.params as { id: string }).id);
    if (!profile) throw notFound("This author does not exist.");
    res.json(profile);
  });
}
