import { Router } from "express";
import { type RateInput, rateSchema, ratingParamsSchema, userRatingQuerySchema } from "../../shared/book-schemas.ts";
import { isAdmin } from "../accounts/present-user.ts";
import { requireAuth } from "../http/require-auth.ts";
import { rateBook, readBookRating, readUserRating } from "./ratings-service.ts";
import type { Db } from "../db/client.ts";
import { forbidden } from "../http/errors.ts";
import { validate } from "../http/validate.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";

/** The rating calls keep the product's paths (docs/product.md#ratings): GET /rating/:bookId, POST /rate, GET /api/reviews. */
export function ratingRoutes({ db, adminEmail, limits }: { db: Db; adminEmail: string | undefined; limits: AbuseLimits }) {
  const root = Router();
  root.get("/rating/:bookId", validate("params", ratingParamsSchema), async (req, res) => {
    res.json(await readBookRating(db, (res.locals.params as { bookId: number }).bookId, { user: req.user, adminEmail }));
  });
  root.post("/rate", requireAuth, limits.rate, validate("body", rateSchema), async (req, res) => {
    res.status(201).json(await rateBook(db, req.user!, adminEmail, res.locals.body as RateInput));
  });

  const api = Router();
  api.get("/reviews", requireAuth, validate("query", userRatingQuerySchema), async (req, res) => {
    const { bookId, userId } = res.locals.query as { bookId: number; userId: string };
    if (userId !== req.user!.id && !isAdmin(req.user!, adminEmail)) throw forbidden("You can only read your own ratings.");
    res.json({ userRating: await readUserRating(db, bookId, userId) });
  });

  return { root, api };
}
