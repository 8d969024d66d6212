import type { Request, RequestHandler, Response } from "express";
import { forbidden, unauthorized } from "./errors.ts";

/**
 * Who may call a route (OWASP ASVS 8.2): every route declares one of these (server/http/define-route.ts),
 * and a route without one cannot be declared. The authorization matrix test calls every route as every
 * kind of caller and expects what its declaration says, so the rule, the code and the test cannot drift.
 */
export type Access =
  /** Anyone, signed in or not. */
  | "public"
  /** Any signed-in account. */
  | "signed-in"
  /** Any signed-in account but the book's author (server/ratings/ratings-policy.ts: an author cannot rate their own book). */
  | "signed-in-not-author"
  /** Only the book's author; not even the admin changes someone's book (server/books/books-policy.ts). */
  | "book-author"
  /** Only the account named in the request, or the admin (server/accounts/accounts-policy.ts). */
  | "account-or-admin"
  /** Only the admin (docs/product.md#roles). */
  | "admin"
  /**
   * An e-reader app: HTTP Basic with an account's username or e-mail and one of its e-reader keys,
   * not the session (docs/product.md#opds); the key's owner is then the caller, as if signed in.
   */
  | "e-reader-key";

/**
 * The caller, for a step that runs behind a signed-in route's access check (an abuse limit per
 * account); refused as the access check would be if the step is ever placed before it.
 */
export function signedInCallerOf(req: Request): Express.User {
  if (!req.user) throw unauthorized();
  return req.user;
}

const passThrough: RequestHandler = (_req, _res, next) => next();
const signedIn: RequestHandler = (req, _res, next) => next(req.user ? undefined : unauthorized());

/** Only the account that verified ADMIN_EMAIL passes (docs/product.md#roles), as the session resolved it; everyone else gets 403, anonymous 401. */
const adminOnly: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(unauthorized());
  next(req.user.isAdmin ? undefined : forbidden("Only the admin can do this."));
};

/** The checks of the kinds of access that need more than the session, given by the feature that serves them. */
export interface Authenticators {
  /** HTTP Basic with an e-reader key: sets the request's user, or refuses with 401 and a challenge (server/opds/e-reader-key-auth.ts). */
  eReaderKey?: RequestHandler;
}

/**
 * The door check of each kind of access: who may knock at all. The kinds that depend on the object
 * (whose book, whose account) let any signed-in caller through here, and the feature's policy
 * decides once the object is known (the Access type names which one).
 */
export function accessGuard(access: Access, authenticators: Authenticators = {}): RequestHandler {
  switch (access) {
    case "public":
      return passThrough;
    case "signed-in":
    case "signed-in-not-author":
    case "book-author":
    case "account-or-admin":
      return signedIn;
    case "admin":
      return adminOnly;
    case "e-reader-key":
      if (!authenticators.eReaderKey) throw new Error("An e-reader-key route needs the e-reader key check: give it to routerOf.");
      return authenticators.eReaderKey;
  }
}

/**
 * Names the matched route by its declared pattern (/api/books/:id, never /api/books/42): the request
 * log and the metrics group by it, and a book's id in a metric's label would make one series per book.
 */
export const markRoute =
  (pattern: string): RequestHandler =>
  (_req, res, next) => {
    res.locals.route = pattern;
    next();
  };

/** The declared pattern of the route that answered, once one matched. */
export const routePatternOf = (res: Response): string | undefined => res.locals.route as string | undefined;
