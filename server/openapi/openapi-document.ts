import { z } from "zod";
import { type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject, createDocument } from "zod-openapi";
import type { Access } from "../http/access.ts";
import type { ErrorStatus, RouteContract, RouteRule } from "../http/define-route.ts";
import { apiErrorSchema } from "./answer-schemas.ts";

/**
 * Which routes are the REST API (docs/product.md#feeds-and-crawling): every route under /api/, and
 * the rating calls kept at the product's paths (/rate, /rating/:bookId), which answer JSON like the
 * rest. The other routes serve documents of their own kinds, described by their own standards: the
 * OPDS catalog (OPDS 1.2 and its OpenSearch description), the Atom feeds, the sitemaps and
 * robots.txt, and cover images.
 */
export const isRestApiRoute = ({ path }: Pick<RouteRule, "path">) => path.startsWith("/api/") || path === "/rate" || path.startsWith("/rating/");

/** A route as the description reads it: its rule, and what it takes and answers when it was declared with them. */
export type DescribedRoute = RouteRule & Partial<RouteContract>;

/** Express's `:id` as OpenAPI writes it: `{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");
export const callKey = (rule: Pick<RouteRule, "method" | "path">) => `${rule.method} ${openApiPath(rule.path)}`;

const SESSION = "sessionCookie";
const E_READER_KEY = "eReaderKey";

/** Who may call, as OpenAPI says it: the scheme a caller proves itself with, and the refusals the access check gives. */
function accessOf(access: Access): { security: Array<Record<string, string[]>>; refusals: ErrorStatus[]; note: string } {
  switch (access) {
    case "public":
      return { security: [], refusals: [], note: "Anyone." };
    case "signed-in":
      return { security: [{ [SESSION]: [] }], refusals: [401], note: "Any signed-in account." };
    case "signed-in-not-author":
      return { security: [{ [SESSION]: [] }], refusals: [401, 403], note: "Any signed-in account but the book's author." };
    case "book-author":
      return { security: [{ [SESSION]: [] }], refusals: [401, 403], note: "Only the book's author." };
    case "account-or-admin":
      return { security: [{ [SESSION]: [] }], refusals: [401, 403], note: "Only the account named in the request, or the admin." };
    case "admin":
      return { security: [{ [SESSION]: [] }], refusals: [401, 403], note: "Only the admin." };
    case "e-reader-key":
      return { security: [{ [E_READER_KEY]: [] }], refusals: [401], note: "An account's e-reader key, by HTTP Basic." };
  }
}

const ERROR_MEANINGS: Record<ErrorStatus, string> = {
  400: "Bad input: `fields` names each refused field.",
  401: "Not signed in, or the credentials are wrong.",
  403: "Signed in, but not allowed to do this.",
  404: "No such object, or one the caller may not see.",
  409: "A conflict with what exists (a name taken, a limit reached).",
  410: "A single-use link that is spent or expired, or a book removed for a breach of Plume's terms.",
  413: "The body or a file is too large.",
  415: "A file of a type Plume does not take.",
  416: "A byte range outside the file.",
  422: "A file Plume cannot process or will not pass on to readers (a Word document with macros, an EPUB with scripts, a Word book whose reading view cannot be made).",
  429: "Too many requests: wait and try again.",
  451: "A book removed on a legal ground (RFC 7725).",
  500: "Something went wrong on the server: quote `requestId`.",
  503: "Not now: a service Plume relies on (the mail server, the file store) did not answer, or the work asked for is under way or queued; try again later (`Retry-After` says when, where given).",
};

function responsesOf(call: RouteContract, refusals: ErrorStatus[]): ZodOpenApiResponsesObject {
  const { status, description, json, binary } = call.answer;
  const responses: ZodOpenApiResponsesObject = {
    [`${status}`]: {
      description,
      ...(json ? { content: { "application/json": { schema: json } } } : {}),
      ...(binary ? { content: { "application/octet-stream": { schema: z.string().meta({ format: "binary", description: binary }) } } } : {}),
    },
  };
  for (const code of [...new Set<ErrorStatus>([...call.errors, ...refusals, 500])].sort((a, b) => a - b)) {
    responses[`${code}`] = { description: ERROR_MEANINGS[code], content: { "application/json": { schema: apiErrorSchema } } };
  }
  return responses;
}

function requestBodyOf(body: RouteContract["body"]): ZodOpenApiOperationObject["requestBody"] {
  if (!body) return undefined;
  if (!("form" in body)) return { required: true, content: { "application/json": { schema: body } } };
  const files = Object.fromEntries(
    Object.entries(body.files).map(([name, required]) => {
      const file = z.string().meta({ format: "binary" });
      return [name, required ? file : file.optional()];
    }),
  );
  return { required: true, content: { "multipart/form-data": { schema: body.form.extend(files) } } };
}

function operationOf(rule: RouteRule, call: RouteContract): ZodOpenApiOperationObject {
  const access = accessOf(rule.access);
  return {
    operationId: `${rule.method.toLowerCase()}${openApiPath(rule.path).replace(/[{}]/g, "").replace(/[/.-](\w)/g, (_match, letter: string) => letter.toUpperCase())}`,
    summary: call.summary,
    description: `Who may call: ${access.note}`,
    tags: [call.tag],
    security: access.security,
    ...(call.params || call.query ? { requestParams: { ...(call.params && { path: call.params }), ...(call.query && { query: call.query }) } } : {}),
    ...(call.body ? { requestBody: requestBodyOf(call.body) } : {}),
    responses: responsesOf(call, access.refusals),
  };
}

/**
 * The OpenAPI 3.1 description of the REST API, from the routes' own declarations (server/http/define-route.ts):
 * who may call each, and what it takes and answers, from the shared zod schemas. A REST route
 * without a description is an error: the description never silently leaves one out.
 */
export function buildOpenApiDocument(routes: readonly DescribedRoute[]) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes.filter(isRestApiRoute)) {
    const { summary, tag, answer, errors } = route;
    if (summary === undefined || tag === undefined || answer === undefined || errors === undefined) throw new Error(`${callKey(route)} has no description: declare its summary, tag, answer and errors.`);
    const path = (paths[openApiPath(route.path)] ??= {});
    path[route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete"] = operationOf(route, { ...route, summary, tag, answer, errors });
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Plume API",
      version: "1",
      description:
        "The REST API of Plume: independent authors publish books, readers download them free. Errors all have the ApiError shape. " +
        "Calls that change something must come from Plume's own origin (an Origin or Referer header of another site is refused).",
    },
    components: {
      securitySchemes: {
        [SESSION]: {
          type: "apiKey",
          in: "cookie",
          name: "plume.sid",
          description: "The session of POST /api/auth/login or /api/auth/register. In production the cookie is named __Host-plume.sid.",
        },
        [E_READER_KEY]: { type: "http", scheme: "basic", description: "Username and an e-reader key (POST /api/e-reader-keys): for e-reader apps." },
      },
    },
    paths,
  });
}
