import { rateSchema, ratingParamsSchema, userRatingQuerySchema } from "../../shared/book-schemas.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import * as answers from "../openapi/answer-schemas.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { rateBook, readBookRating, readUserRating } from "./ratings-service.ts";

export interface RatingRoutesDeps {
  db: Db;
  limits: AbuseLimits;
}

const route = routesOf<RatingRoutesDeps>();

/** The rating calls keep the product's paths (docs/product.md#ratings): GET /rating/:bookId, POST /rate, GET /api/reviews. */
export const ratingRoutes = routeGroup("", [
  route(
    {
      method: "GET",
      path: "/rating/:bookId",
      access: "public",
      summary: "A book's average rating and number of ratings",
      tag: "ratings",
      params: ratingParamsSchema,
      answer: { status: 200, description: "The rating.", json: answers.bookRatingSchema },
      errors: [400, 404],
    },
    ({ params, caller }, { db }) => readBookRating(db, params.bookId, caller),
  ),
  route(
    {
      method: "POST",
      path: "/rate",
      access: "signed-in-not-author",
      summary: "Rate a book, in one's own name, never one's own book",
      tag: "ratings",
      // The limit counts every attempt, a malformed one too: it runs before the body is read.
      before: (deps) => [deps.limits.rate],
      body: rateSchema,
      answer: { status: 201, description: "The book's rating after this one.", json: answers.bookRatingSchema },
      errors: [400, 404, 429],
    },
    ({ body, caller }, { db }) => rateBook(db, caller, body),
  ),
  route(
    {
      method: "GET",
      path: "/api/reviews",
      access: "account-or-admin",
      summary: "A reader's own rating of a book (the reader, or the admin)",
      tag: "ratings",
      query: userRatingQuerySchema,
      answer: { status: 200, description: "The rating, 0 when none.", json: answers.userRatingSchema },
      errors: [400, 404],
    },
    async ({ query, caller }, { db }) => ({ userRating: await readUserRating(db, caller, query.bookId, query.userId) }),
  ),
]);
