import { z } from "zod";
import { type AdminResetLink, forgotPasswordSchema, resetPasswordSchema, resetTokenRule } from "../../shared/password-reset.ts";
import { authorIdSchema } from "../../shared/book-schemas.ts";
import { checkResetLink, issueAdminResetLink, mailResetLink, resetPassword } from "./password-reset-service.ts";
import type { PasswordHashCost } from "../config.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { logger } from "../system/logger.ts";

export interface PasswordResetRoutesDeps {
  db: Db;
  /** Where links start (server/http/site-origin.ts). */
  origin: string;
  productName: string;
  passwordHashCost: PasswordHashCost;
  mailer: Mailer;
  limits: AbuseLimits;
}

export type AdminResetLinkRoutesDeps = Pick<PasswordResetRoutesDeps, "db" | "origin">;

/** The one answer to "Forgot password?", whatever the address (docs/decisions/0034). */
const RESET_REQUESTED = { message: "If this address is the verified e-mail of an account, a link to choose a new password is on its way." };

const route = routesOf<PasswordResetRoutesDeps>();

/** "Forgot password?" and setting a new password through a reset link (docs/product.md#password-reset). */
export const passwordResetRoutes = routeGroup("/api/auth", [
  route(
    {
      method: "POST",
      path: "/api/auth/forgot-password",
      // The same answer for any address (docs/product.md#password-reset).
      access: "public",
      summary: "Ask for a password reset link by e-mail; the answer is the same whether or not an account has the address",
      tag: "accounts",
      body: forgotPasswordSchema,
      after: (deps) => [deps.limits.passwordReset],
      answer: { status: 202, description: "Accepted: a verified address of an account gets a link valid one hour.", json: z.object({ message: z.string() }) },
      errors: [400, 429],
    },
    ({ body, res }, { db, mailer, origin, productName }) => {
      // Answered before the account is looked up: the answer and its timing are the same for every
      // address, and a slow mail server delays no one (docs/decisions/0034).
      res.status(202).json(RESET_REQUESTED);
      mailResetLink(db, { mailer, origin, productName }, body.email, new Date()).catch((error: unknown) =>
        logger.error({ component: "password-reset", error: (error as Error).message }, "the reset link for a requested address was not made"),
      );
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/auth/reset-password/check",
      access: "public",
      summary: "Whether a reset link can still be used, without using it",
      tag: "accounts",
      query: z.object({ token: resetTokenRule }),
      answer: { status: 204, description: "The link can be used." },
      errors: [400, 410],
    },
    ({ query }, { db }) => checkResetLink(db, query.token, new Date()),
  ),
  route(
    {
      method: "POST",
      path: "/api/auth/reset-password",
      // The reset link is the caller's proof (docs/product.md#password-reset).
      access: "public",
      summary: "Set a new password with the token of a reset link; the account's other sessions are signed out",
      tag: "accounts",
      body: resetPasswordSchema,
      answer: { status: 204, description: "The password is changed and every reset link of the account spent." },
      errors: [400, 410],
    },
    ({ body: { token, password }, req }, { db, passwordHashCost }) => resetPassword(db, { token, password }, passwordHashCost, req.sessionID, new Date()),
  ),
]);

const adminRoute = routesOf<AdminResetLinkRoutesDeps>();

/** The admin's reset link for an account, shown once (docs/product.md#password-reset). */
export const adminResetLinkRoutes = routeGroup("/api/admin/users", [
  adminRoute(
    {
      method: "POST",
      path: "/api/admin/users/:id/reset-link",
      access: "admin",
      summary: "Make a password reset link for an account (one without e-mail too), shown once",
      tag: "admin",
      params: authorIdSchema,
      answer: { status: 201, description: "The link, valid one hour and once.", json: z.object({ url: z.string(), expiresAt: z.string() }) },
      errors: [400, 404],
    },
    async ({ params }, { db, origin }) => {
      const link = await issueAdminResetLink(db, params.id, origin, new Date());
      return { url: link.url, expiresAt: link.expiresAt.toISOString() } satisfies AdminResetLink;
    },
  ),
]);
