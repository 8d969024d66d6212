import type { Request, RequestHandler, Response } from "express";
import { loginSchema, registerSchema } from "../../shared/auth.ts";
import { noteSignInOnSession } from "./account-sessions-service.ts";
import { registerAccount } from "./accounts-service.ts";
import { endSession } from "./end-session.ts";
import { type VerificationMailing, mailAddressProof } from "./email-verification-service.ts";
import { presentCurrentUser } from "./present-user.ts";
import type { AccountAsCaller, PassportInstance } from "./passport.ts";
import type { PasswordHashCost } from "../config.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import { invalidCredentials } from "../http/errors.ts";
import { chosenLanguage } from "../http/request-language.ts";
import * as answers from "../openapi/answer-schemas.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";

export interface AuthRoutesDeps {
  db: Db;
  passport: PassportInstance;
  sessionCookieName: string;
  limits: AbuseLimits;
  passwordHashCost: PasswordHashCost;
  mailing: VerificationMailing;
  /**
   * The in-flight limit /register and /login share, built once per app (server/app.ts): signing in and
   * registering each end in a password hash, and the two together never serve more of them at once
   * than the hashing queue takes (docs/decisions/0054).
   */
  signInSlots: RequestHandler;
  callerOf: AccountAsCaller;
}

/** passport-local's check of the body's username and password, as a promise: the account, or false for wrong credentials. */
const checkCredentials = (passport: PassportInstance, req: Request, res: Response) =>
  new Promise<Express.User | false>((resolve, reject) => {
    passport.authenticate("local", { session: true }, (error: unknown, user: Express.User | false) => (error ? reject(error) : resolve(user)))(req, res, (error?: unknown) =>
      reject(error ?? new Error("passport-local passed the sign-in on without deciding it.")),
    );
  });

/** Starts the caller's session (req.logIn regenerates its id, so an id planted before is worthless after) and answers the account. */
async function startSession(req: Request, user: Express.User) {
  await new Promise<void>((resolve, reject) => req.logIn(user, (error) => (error ? reject(error as Error) : resolve())));
  noteSignInOnSession(req, new Date());
  return presentCurrentUser(user);
}

const route = routesOf<AuthRoutesDeps>();

export const authRoutes = routeGroup("/api/auth", [
  route(
    {
      method: "POST",
      path: "/api/auth/register",
      access: "public",
      summary: "Create an account and sign in; its e-mail is an unproven claim, answered alike whether another account holds it",
      tag: "accounts",
      before: (deps) => [deps.signInSlots, deps.limits.register],
      body: registerSchema,
      answer: { status: 201, description: "The new account, signed in (a session cookie is set).", json: answers.currentUserSchema },
      errors: [400, 409, 429, 503],
    },
    async ({ body, req }, { db, passwordHashCost, mailing, callerOf }) => {
      // The account's mail is written in the language its owner chose in the interface.
      const account = await registerAccount(db, body, passwordHashCost, chosenLanguage(req));
      // A link that cannot be sent now is logged; the account stands, and the dashboard sends another.
      // Whether another account proved the address changes only the mail, never this answer (docs/decisions/0054).
      await mailAddressProof(db, account, mailing, new Date());
      return startSession(req, callerOf(account));
    },
  ),
  route(
    {
      method: "POST",
      path: "/api/auth/login",
      access: "public",
      summary: "Sign in with a username or proven e-mail and a password",
      tag: "accounts",
      before: (deps) => [deps.signInSlots],
      body: loginSchema,
      // The sign-in limit is keyed by the typed username: it reads the checked body.
      after: (deps) => [deps.limits.signIn],
      answer: { status: 200, description: "The account (a session cookie is set).", json: answers.currentUserSchema },
      errors: [400, 401, 429, 503],
    },
    async ({ req, res }, { passport }) => {
      const user = await checkCredentials(passport, req, res);
      if (!user) throw invalidCredentials();
      return startSession(req, user);
    },
  ),
  route(
    {
      method: "POST",
      path: "/api/auth/logout",
      access: "public",
      summary: "Sign out",
      tag: "accounts",
      answer: { status: 204, description: "The session is ended." },
      errors: [],
    },
    ({ req, res }, { sessionCookieName }) => endSession(req, res, sessionCookieName),
  ),
  route(
    {
      method: "GET",
      path: "/api/auth/user",
      // Anyone: "nobody is signed in" is an answer (null), not an error a visitor's console would show (docs/decisions/0067).
      access: "public",
      summary: "The signed-in account, or null when nobody is signed in",
      tag: "accounts",
      answer: { status: 200, description: "The account; null without a session (an expired or signed-out one included).", json: answers.currentUserSchema.nullable() },
      errors: [],
    },
    ({ caller }) => (caller ? presentCurrentUser(caller) : null),
  ),
]);
