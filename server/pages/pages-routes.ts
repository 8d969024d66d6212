import { authorIdSchema } from "../../shared/book-schemas.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import { notFound } from "../http/errors.ts";
import * as answers from "../openapi/answer-schemas.ts";
import { showsExplicit } from "../books/books-policy.ts";
import { readAuthorProfile } from "./pages-service.ts";

const route = routesOf<{ db: Db }>();

/** The author page's data: public, and only what a visitor may see, explicit books for a reader who chose them (docs/product.md#book-pages). */
export const pagesRoutes = routeGroup("/api", [
  route(
    {
      method: "GET",
      path: "/api/authors/:id",
      access: "public",
      summary: "An author's public profile and published books",
      tag: "authors",
      params: authorIdSchema,
      answer: { status: 200, description: "The profile.", json: answers.authorProfileSchema },
      errors: [400, 404],
    },
    async ({ params, caller, res }, { db }) => {
      // Explicit books are listed only for a reader who chose to see them: the answer depends on who asks.
      res.vary("Cookie");
      const profile = await readAuthorProfile(db, params.id, showsExplicit(caller));
      if (!profile) throw notFound("This author does not exist.");
      return profile;
    },
  ),
]);
