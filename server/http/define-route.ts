import { type NextFunction, type Request, type RequestHandler, type Response, Router } from "express";
import type { z } from "zod";
import { type Access, type Authenticators, accessGuard, markRoute } from "./access.ts";
import { toValidationError } from "./validate.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Who may call a route, where it is: the smallest part of a declaration, and what the authorization tests read. */
export interface RouteRule {
  method: Method;
  path: string;
  access: Access;
}

/** The refusals the API gives (server/http/errors.ts), and the 500 of the unexpected. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 416 | 422 | 429 | 451 | 500 | 503;

/** A multipart form: its text fields' schema, and its file fields (name → required). */
export interface UploadForm {
  form: z.ZodObject;
  files: Record<string, boolean>;
}

/** What a call takes and answers: read by the route itself and by its OpenAPI description. */
export interface RouteContract {
  /** One line: what the call does, as its OpenAPI summary says it. */
  summary: string;
  /** The OpenAPI tag the call is listed under (the REST API's areas; documents of their own kind name theirs too). */
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType | UploadForm;
  /** The answer when all goes well: its status, and its JSON (typed: the handler returns it) or its binary type. */
  answer: { status: 200 | 201 | 202 | 204 | 206 | 302; description: string; json?: z.ZodType; binary?: string };
  /** Statuses of refusals besides the access check's 401/403 and the 500 any call can answer. */
  errors: readonly ErrorStatus[];
}

/** One route, declared once: who may call it, what it takes and answers, and (in `Route`) what it does. */
export interface RouteDeclaration<Deps = never> extends RouteRule, RouteContract {
  /**
   * Steps of the feature that run once the caller and the path and query are checked, before the
   * body is read: abuse limits, the upload's parsing (which makes the form's body).
   */
  before?: (deps: Deps) => RequestHandler[];
  /** Steps that need the checked body, before the handler (a sign-in limit keyed by the typed username). */
  after?: (deps: Deps) => RequestHandler[];
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type BodyOf<B> = B extends UploadForm ? z.output<B["form"]> : Parsed<B>;

/** The signed-in account, with the admin flag the session resolved (server/accounts/passport.ts). */
export type Caller = Express.User;
type CallerOf<A extends Access> = A extends "public" ? Caller | undefined : Caller;

/** What a handler gets: its input parsed by the declaration's schemas, and its caller, typed by the access rule. */
export interface RouteCall<D extends RouteDeclaration<never>> {
  params: Parsed<D["params"]>;
  query: Parsed<D["query"]>;
  body: BodyOf<D["body"]>;
  caller: CallerOf<D["access"]>;
  req: Request;
  res: Response;
}

/**
 * A handler returns the JSON answer its declaration names, which is sent with the declared status; or
 * returns nothing, answering itself (a file, XML, a redirect), or for a 204.
 */
type AnswerOf<D extends RouteDeclaration<never>> = D["answer"]["json"] extends z.ZodType ? z.input<D["answer"]["json"]> : void;
export type RouteHandler<D extends RouteDeclaration<never>, Deps> = (call: RouteCall<D>, deps: Deps) => AnswerOf<D> | void | Promise<AnswerOf<D> | void>;

export interface Route<Deps = never> extends RouteDeclaration<Deps> {
  handler: RouteHandler<RouteDeclaration<never>, Deps>;
}

const ACCESS_RULES: ReadonlySet<string> = new Set<Access>(["public", "signed-in", "signed-in-not-author", "book-author", "account-or-admin", "admin", "e-reader-key"]);

/**
 * Declares one route and its handler, for a feature whose routes share `Deps`:
 * `const route = routesOf<BooksDeps>(); route({ method, path, access, ... }, async ({ params, caller }, deps) => ...)`.
 * The access rule is required: without one (or with an unknown one) the route cannot be declared.
 */
export const routesOf =
  <Deps>() =>
  <const D extends RouteDeclaration<Deps>>(declaration: D, handler: RouteHandler<D, Deps>): Route<Deps> => {
    if (!ACCESS_RULES.has(declaration.access as string)) {
      throw new Error(`${declaration.method} ${declaration.path} has no access rule: decide who may call it (server/http/access.ts lists the rules).`);
    }
    return { ...declaration, handler: handler as unknown as RouteHandler<RouteDeclaration<never>, Deps> };
  };

/** A feature's routes, mounted together under `base` (where the router is mounted; "" for the root). */
export interface RouteGroup<Deps = never> {
  base: string;
  routes: readonly Route<Deps>[];
  /** Everything under the base, a route or not, answers as this access first: an unknown admin path tells a visitor nothing. */
  guardAll?: Access;
  /** What answers a path under the base that no route matches (a JSON 404, never the app's page). */
  unmatched?: RequestHandler;
  /** The checks of the kinds of access that need more than the session (an e-reader key), built from the group's deps. */
  authenticators?: (deps: Deps) => Authenticators;
}

export function routeGroup<Deps>(
  base: string,
  routes: readonly Route<Deps>[],
  options: Pick<RouteGroup<Deps>, "guardAll" | "unmatched" | "authenticators"> = {},
): RouteGroup<Deps> {
  for (const { method, path } of routes) {
    if (!path.startsWith(base)) throw new Error(`${method} ${path} is declared in the group under ${base}: move it to its own group.`);
  }
  return { base, routes, ...options };
}

function checkInput(part: "params" | "query" | "body", schema: z.ZodType): RequestHandler {
  return (req, res, next) => {
    const input = part === "body" && req.body === undefined ? {} : req[part];
    const result = schema.safeParse(input);
    if (!result.success) return next(toValidationError(result.error));
    res.locals[part] = result.data;
    // Middleware that reads the body itself (passport-local, a sign-in limit) reads the checked one.
    if (part === "body") req.body = result.data;
    next();
  };
}

function runHandler<Deps>(route: Route<Deps>, deps: Deps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const call = { params: res.locals.params, query: res.locals.query, body: res.locals.body, caller: req.user, req, res } as RouteCall<RouteDeclaration<never>>;
      const answer = await route.handler(call, deps);
      if (res.headersSent) return;
      // Nothing returned: the handler sends its answer itself (a stream may still be on its way), or it is a 204.
      if (answer !== undefined) res.status(route.answer.status).json(answer);
      else if (route.answer.status === 204) res.status(204).end();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The group as an Express router: each route runs, in order, its name for logs and metrics, the
 * access check, the path and query checks, the feature's `before` steps, the body check, its `after`
 * steps, and the handler. The caller is checked before anything else the route does.
 */
export function routerOf<Deps>(group: RouteGroup<Deps>, deps: Deps): Router {
  const router = Router();
  const authenticators = group.authenticators?.(deps) ?? {};
  if (group.guardAll) router.use(accessGuard(group.guardAll, authenticators));
  for (const route of group.routes) {
    const steps: RequestHandler[] = [markRoute(route.path), accessGuard(route.access, authenticators)];
    if (route.params) steps.push(checkInput("params", route.params));
    if (route.query) steps.push(checkInput("query", route.query));
    steps.push(...(route.before?.(deps) ?? []));
    if (route.body) steps.push(checkInput("body", "form" in route.body ? route.body.form : route.body));
    steps.push(...(route.after?.(deps) ?? []), runHandler(route, deps));
    const relative = route.path.slice(group.base.length) || "/";
    router[route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete"](relative, ...steps);
  }
  if (group.unmatched) router.use(group.unmatched);
  return router;
}
