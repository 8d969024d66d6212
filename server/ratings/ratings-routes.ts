import { type RateInput, rateSchema, ratingParamsSchema, userRatingQuerySchema } from "../../shared/book-schemas.ts";
import type { UserRating } from "../../shared/books.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { rateBook, readBookRating, readUserRating } from "./ratings-service.ts";

/** The rating calls keep the product's paths (docs/product.md#ratings): GET /rating/:bookId, POST /rate, GET /api/reviews. */
export function ratingRoutes({ db, adminEmail, limits }: { db: Db; adminEmail: string | undefined; limits: AbuseLimits }): GuardedRouter {
  return new GuardedRouter("", adminEmail)
    .get("/rating/:bookId", validate("params", ratingParamsSchema), async (req, res) => {
      res.json(await readBookRating(db, (res.locals.params as { bookId: number }).bookId, { user: req.user, adminEmail }));
    })
    .post("/rate", limits.rate, validate("body", rateSchema), async (req, res) => {
      res.status(201).json(await rateBook(db, req.user!, adminEmail, res.locals.body as RateInput));
    })
    .get("/api/reviews", validate("query", userRatingQuerySchema), async (req, res) => {
      const { bookId, userId } = res.locals.query as { bookId: number; userId: string };
      res.json({ userRating: await readUserRating(db, req.user!, bookId, userId, adminEmail) } satisfies UserRating);
    });
}
