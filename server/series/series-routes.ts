import { z } from "zod";
import { bookIdSchema } from "../../shared/book-schemas.ts";
import { seriesFieldsSchema, seriesIdSchema, tagSlugParamsSchema, tagSuggestQuerySchema } from "../../shared/series-and-tags.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import * as answers from "../openapi/answer-schemas.ts";
import {
  createSeries,
  editSeries,
  listOwnSeries,
  readBookPlacement,
  readSeriesPage,
  readTag,
  removeSeries,
  suggestTagsFor,
} from "./series-service.ts";

export interface SeriesRoutesDeps {
  db: Db;
}

const route = routesOf<SeriesRoutesDeps>();

/** Series and tags (docs/product.md#series-and-tags): an author's series, their pages, a book's place and tags, tag suggestions. */
export const seriesRoutes = routeGroup("/api", [
  route(
    {
      method: "GET",
      path: "/api/account/series",
      access: "signed-in",
      summary: "The caller's own series, by title, each with its number of books",
      tag: "series",
      answer: { status: 200, description: "The series.", json: z.array(answers.seriesSummarySchema) },
      errors: [],
    },
    ({ caller }, { db }) => listOwnSeries(db, caller),
  ),
  route(
    {
      method: "POST",
      path: "/api/series",
      access: "signed-in",
      summary: "Create a series of one's own (409 series_limit past 100)",
      tag: "series",
      body: seriesFieldsSchema,
      answer: { status: 201, description: "The series.", json: answers.seriesSummarySchema },
      errors: [400, 409],
    },
    ({ caller, body }, { db }) => createSeries(db, caller, body),
  ),
  route(
    {
      method: "PUT",
      path: "/api/series/:id",
      access: "signed-in",
      summary: "Rename or describe one's own series (403 series_not_yours for another's)",
      tag: "series",
      params: seriesIdSchema,
      body: seriesFieldsSchema,
      answer: { status: 200, description: "The series as edited.", json: answers.seriesSummarySchema },
      errors: [400, 403, 404],
    },
    ({ caller, params, body }, { db }) => editSeries(db, caller, params.id, body),
  ),
  route(
    {
      method: "DELETE",
      path: "/api/series/:id",
      access: "signed-in",
      summary: "Delete one's own series; its books stay, in no series",
      tag: "series",
      params: seriesIdSchema,
      answer: { status: 204, description: "Deleted." },
      errors: [400, 403, 404],
    },
    ({ caller, params }, { db }) => removeSeries(db, caller, params.id),
  ),
  route(
    {
      method: "GET",
      path: "/api/series/:id",
      access: "public",
      summary: "A series' page: its author, description and listed volumes in order (404 until one is listed, but to its author)",
      tag: "series",
      params: seriesIdSchema,
      answer: { status: 200, description: "The series.", json: answers.seriesPageSchema },
      errors: [400, 404],
    },
    ({ caller, params }, { db }) => readSeriesPage(db, params.id, caller),
  ),
  route(
    {
      method: "GET",
      path: "/api/books/:id/placement",
      access: "public",
      summary: "A book's series and volume, the next volume, and its tags",
      tag: "series",
      params: bookIdSchema,
      answer: { status: 200, description: "Where the book sits.", json: answers.bookPlacementSchema },
      errors: [400, 404, 410, 451],
    },
    ({ caller, params }, { db }) => readBookPlacement(db, params.id, caller),
  ),
  route(
    {
      method: "GET",
      path: "/api/tags",
      access: "public",
      summary: "Tags whose normalised form starts as the query's does, most used first",
      tag: "series",
      query: tagSuggestQuerySchema,
      answer: { status: 200, description: "Up to 8 tags.", json: answers.tagSuggestionsSchema },
      errors: [400],
    },
    ({ query }, { db }) => suggestTagsFor(db, query.q),
  ),
  route(
    {
      method: "GET",
      path: "/api/tags/:slug",
      access: "public",
      summary: "A tag by its normalised form: its name and number of listed books",
      tag: "series",
      params: tagSlugParamsSchema,
      answer: { status: 200, description: "The tag.", json: answers.tagInfoSchema },
      errors: [400, 404],
    },
    ({ params }, { db }) => readTag(db, params.slug),
  ),
]);
