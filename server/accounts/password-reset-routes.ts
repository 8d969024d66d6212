import {
  type AdminResetLink,
  type ForgotPasswordInput,
  type ResetPasswordInput,
  forgotPasswordSchema,
  resetPasswordSchema,
} from "../../shared/password-reset.ts";
import { authorIdSchema } from "../../shared/book-schemas.ts";
import { issueAdminResetLink, mailResetLink, resetPassword } from "./password-reset-service.ts";
import type { PasswordHashCost } from "../config.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { logger } from "../system/logger.ts";

interface PasswordResetRoutesDeps {
  db: Db;
  adminEmail: string | undefined;
  /** Where links start (server/http/site-origin.ts). */
  origin: string;
  productName: string;
  passwordHashCost: PasswordHashCost;
  mailer: Mailer;
  limits: AbuseLimits;
}

/** The one answer to "Forgot password?", whatever the address (docs/decisions/0034). */
const RESET_REQUESTED = { message: "If this address is the verified e-mail of an account, a link to choose a new password is on its way." };

/** "Forgot password?" and setting a new password through a reset link (docs/product.md#password-reset). */
export function passwordResetRoutes({ db, adminEmail, origin, productName, passwordHashCost, mailer, limits }: PasswordResetRoutesDeps): GuardedRouter {
  return new GuardedRouter("/api/auth", adminEmail)
    .post("/forgot-password", validate("body", forgotPasswordSchema), limits.passwordReset, (_req, res) => {
      const { email } = res.locals.body as ForgotPasswordInput;
      // Answered before the account is looked up: the answer and its timing are the same for every
      // address, and a slow mail server delays no one (docs/decisions/0034).
      res.status(202).json(RESET_REQUESTED);
      mailResetLink(db, { mailer, origin, productName }, email, new Date()).catch((error: unknown) =>
        logger.error({ component: "password-reset", error: (error as Error).message }, "the reset link for a requested address was not made"),
      );
    })
    .post("/reset-password", validate("body", resetPasswordSchema), async (req, res) => {
      const { token, password } = res.locals.body as ResetPasswordInput;
      await resetPassword(db, { token, password }, passwordHashCost, req.sessionID, new Date());
      res.status(204).end();
    });
}

/** The admin's reset link for an account, shown once (docs/product.md#password-reset). */
export function adminResetLinkRoutes({ db, adminEmail, origin }: Pick<PasswordResetRoutesDeps, "db" | "adminEmail" | "origin">): GuardedRouter {
  return new GuardedRouter("/api/admin/users", adminEmail).post("/:id/reset-link", validate("params", authorIdSchema), async (req, res) => {
    const { id } = res.locals.params as { id: string };
    const link = await issueAdminResetLink(db, id, origin, new Date());
    res.status(201).json({ url: link.url, expiresAt: link.expiresAt.toISOString() } satisfies AdminResetLink);
  });
}
