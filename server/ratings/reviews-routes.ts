import { bookIdSchema } from "../../shared/book-schemas.ts";
import { ratingChangeSchema, replySchema, reviewIdSchema, reviewListQuerySchema, reviewSchema } from "../../shared/reviews.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import * as answers from "../openapi/answer-schemas.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import type { DecisionMailing } from "../moderation/moderation-service.ts";
import {
  changeRating,
  deleteOwnReview,
  deleteReply,
  readReviews,
  removeRating,
  replyToReview,
  tellReportersOfDeletion,
  voteHelpful,
  writeReview,
} from "./reviews-service.ts";

export interface ReviewRoutesDeps {
  db: Db;
  limits: AbuseLimits;
  /** For the senders of notices about a review its writer deletes. */
  mailing: DecisionMailing;
}


const route = routesOf<ReviewRoutesDeps>();

/** A book's reviews, the reader's own rating and review, the author's replies and helpful votes (docs/product.md#reviews); the admin's decisions are moderation's. */
export const reviewRoutes = routeGroup("/api", [
  route(
    {
      method: "GET",
      path: "/api/books/:id/reviews",
      access: "public",
      summary: "A page of a book's reviews, newest or most helpful first, and what the caller may do on them",
      tag: "ratings",
      params: bookIdSchema,
      query: reviewListQuerySchema,
      answer: { status: 200, description: "The page.", json: answers.reviewPageSchema },
      errors: [400, 404, 410, 451],
    },
    ({ params, query, caller }, { db }) => readReviews(db, params.id, query, caller),
  ),
  route(
    {
      method: "PUT",
      path: "/api/books/:id/rating",
      access: "signed-in-not-author",
      summary: "Change one's rating of a book (404 not_rated when there is none)",
      tag: "ratings",
      before: (deps) => [deps.limits.rate],
      params: bookIdSchema,
      body: ratingChangeSchema,
      answer: { status: 200, description: "The book's rating after the change.", json: answers.bookRatingSchema },
      errors: [400, 404, 409, 429],
    },
    ({ params, body, caller }, { db }) => changeRating(db, caller, params.id, body, new Date()),
  ),
  route(
    {
      method: "DELETE",
      path: "/api/books/:id/rating",
      access: "signed-in-not-author",
      summary: "Take back one's rating of a book, and the review written with it",
      tag: "ratings",
      params: bookIdSchema,
      answer: { status: 200, description: "The book's rating after the removal.", json: answers.bookRatingSchema },
      errors: [400, 404, 409],
    },
    async ({ params, caller }, { db, mailing }) => {
      const { bookRating, deletion } = await removeRating(db, caller, params.id, new Date());
      await tellReportersOfDeletion(db, mailing, deletion);
      return bookRating;
    },
  ),
  route(
    {
      method: "PUT",
      path: "/api/books/:id/review",
      access: "signed-in-not-author",
      summary: "Write or change one's review of a book taken, with its rating (403 book_not_taken before the book is taken)",
      tag: "ratings",
      after: (deps) => [deps.limits.reviews],
      params: bookIdSchema,
      body: reviewSchema,
      answer: { status: 200, description: "The review as the book page shows it, and the book's rating after it.", json: answers.writtenReviewSchema },
      errors: [400, 404, 409, 429],
    },
    ({ params, body, caller }, { db }) => writeReview(db, caller, params.id, body, new Date()),
  ),
  route(
    {
      method: "DELETE",
      path: "/api/books/:id/review",
      access: "signed-in-not-author",
      summary: "Delete one's review's words, its reply and helpful votes; the rating stays",
      tag: "ratings",
      params: bookIdSchema,
      answer: { status: 204, description: "Deleted." },
      errors: [400, 404, 409],
    },
    async ({ params, caller }, { db, mailing }) => tellReportersOfDeletion(db, mailing, await deleteOwnReview(db, caller, params.id, new Date())),
  ),
  route(
    {
      method: "PUT",
      path: "/api/reviews/:id/reply",
      access: "book-author",
      summary: "The book's author replies to a review of it, or changes the reply",
      tag: "ratings",
      after: (deps) => [deps.limits.reviewReplies],
      params: reviewIdSchema,
      body: replySchema,
      answer: { status: 200, description: "The review with its reply.", json: answers.publicReviewSchema },
      errors: [400, 404, 429],
    },
    ({ params, body, caller }, { db }) => replyToReview(db, caller, params.id, body, new Date()),
  ),
  route(
    {
      method: "DELETE",
      path: "/api/reviews/:id/reply",
      access: "book-author",
      summary: "The book's author deletes their reply to a review",
      tag: "ratings",
      params: reviewIdSchema,
      answer: { status: 204, description: "Deleted." },
      errors: [400, 404, 409],
    },
    ({ params, caller }, { db }) => deleteReply(db, caller, params.id),
  ),
  route(
    {
      method: "PUT",
      path: "/api/reviews/:id/helpful",
      access: "signed-in",
      summary: "Mark another reader's review helpful, once (403 own_review on one's own)",
      tag: "ratings",
      before: (deps) => [deps.limits.helpfulVotes],
      params: reviewIdSchema,
      answer: { status: 200, description: "The review's helpful count.", json: answers.helpfulStateSchema },
      errors: [400, 404, 429],
    },
    ({ params, caller }, { db }) => voteHelpful(db, caller, params.id, true),
  ),
  route(
    {
      method: "DELETE",
      path: "/api/reviews/:id/helpful",
      access: "signed-in",
      summary: "Take back one's helpful mark on a review",
      tag: "ratings",
      before: (deps) => [deps.limits.helpfulVotes],
      params: reviewIdSchema,
      answer: { status: 200, description: "The review's helpful count.", json: answers.helpfulStateSchema },
      errors: [400, 404, 429],
    },
    ({ params, caller }, { db }) => voteHelpful(db, caller, params.id, false),
  ),
]);
