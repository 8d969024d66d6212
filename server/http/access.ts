import { type RequestHandler, type Response, Router } from "express";
import { isAdmin } from "../accounts/accounts-policy.ts";
import { forbidden, unauthorized } from "./errors.ts";
import { type Access, ROUTE_TABLE, type RouteRule } from "./route-table.ts";

type Method = RouteRule["method"];

const passThrough: RequestHandler = (_req, _res, next) => next();
const signedIn: RequestHandler = (req, _res, next) => next(req.user ? undefined : unauthorized());

/** Only the account that verified ADMIN_EMAIL passes (docs/product.md#roles); everyone else gets 403, anonymous 401. */
const adminOnly =
  (adminEmail: string | undefined): RequestHandler =>
  (req, _res, next) => {
    if (!req.user) return next(unauthorized());
    next(isAdmin(req.user, adminEmail) ? undefined : forbidden("Only the admin can do this."));
  };

/** The checks of the kinds of access that need more than the session, given by the feature that serves them. */
export interface Authenticators {
  /** HTTP Basic with an e-reader key: sets the request's user, or refuses with 401 and a challenge (server/opds/e-reader-key-auth.ts). */
  eReaderKey?: RequestHandler;
}

/**
 * The door check of each kind of access: who may knock at all. The kinds that depend on the object
 * (whose book, whose account) let any signed-in caller through here, and the feature's policy
 * decides once the object is known (route-table.ts names which one).
 */
export function accessGuard(access: Access, adminEmail: string | undefined, authenticators: Authenticators = {}): RequestHandler {
  switch (access) {
    case "public":
      return passThrough;
    case "signed-in":
    case "signed-in-not-author":
    case "book-author":
    case "account-or-admin":
      return signedIn;
    case "admin":
      return adminOnly(adminEmail);
    case "e-reader-key":
      if (!authenticators.eReaderKey) throw new Error("An e-reader-key route needs the e-reader key check: give it to its GuardedRouter.");
      return authenticators.eReaderKey;
  }
}

/**
 * Names the matched route by its pattern in the route table (/api/books/:id, never /api/books/42): the
 * request log and the metrics group by it, and a book's id in a metric's label would make one series per book.
 */
const markRoute =
  (pattern: string): RequestHandler =>
  (_req, res, next) => {
    res.locals.route = pattern;
    next();
  };

/** The route table's pattern of the route that answered, once one matched. */
export const routePatternOf = (res: Response): string | undefined => res.locals.route as string | undefined;

const joinPath = (base: string, path: string) => `${base}${path === "/" && base !== "" ? "" : path}`;

/** The rule of `METHOD path` in the route table; a route missing from it cannot be mounted. */
export function ruleOf(method: Method, path: string, table: readonly RouteRule[] = ROUTE_TABLE): RouteRule {
  const rule = table.find((candidate) => candidate.method === method && candidate.path === path);
  if (!rule) throw new Error(`${method} ${path} has no rule in server/http/route-table.ts: decide who may call it there first.`);
  return rule;
}

/**
 * A feature's routes under one base path. Each route is declared with its path only: its access is
 * read from the route table and checked before anything else the route does.
 */
export class GuardedRouter {
  readonly router = Router();

  constructor(
    /** Where the router is mounted ("" for the root), as the route table writes it. */
    readonly base: string,
    private readonly adminEmail: string | undefined,
    private readonly authenticators: Authenticators = {},
  ) {}

  get(path: string, ...handlers: RequestHandler[]): this {
    return this.add("GET", path, handlers);
  }

  post(path: string, ...handlers: RequestHandler[]): this {
    return this.add("POST", path, handlers);
  }

  put(path: string, ...handlers: RequestHandler[]): this {
    return this.add("PUT", path, handlers);
  }

  patch(path: string, ...handlers: RequestHandler[]): this {
    return this.add("PATCH", path, handlers);
  }

  delete(path: string, ...handlers: RequestHandler[]): this {
    return this.add("DELETE", path, handlers);
  }

  /** Everything under the base, a route or not, answers as `access` first: an unknown admin path tells a visitor nothing. */
  guardAll(access: Access): this {
    this.router.use(accessGuard(access, this.adminEmail, this.authenticators));
    return this;
  }

  private add(method: Method, path: string, handlers: RequestHandler[]): this {
    const pattern = joinPath(this.base, path);
    const { access } = ruleOf(method, pattern);
    const route = this.router.route(path);
    const guarded = [markRoute(pattern), accessGuard(access, this.adminEmail, this.authenticators), ...handlers];
    if (method === "GET") route.get(guarded);
    else if (method === "POST") route.post(guarded);
    else if (method === "PUT") route.put(guarded);
    else if (method === "PATCH") route.patch(guarded);
    else route.delete(guarded);
    return this;
  }
}
