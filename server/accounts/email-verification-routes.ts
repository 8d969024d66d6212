import { verifyEmailSchema, type VerifyEmailInput } from "../../shared/email-verification.ts";
import { resendVerificationLink, verifyEmail } from "./email-verification-service.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";

interface EmailVerificationDeps {
  db: Db;
  adminEmail: string | undefined;
  mailer: Mailer;
  /** Where links start (server/http/site-origin.ts). */
  origin: string;
  productName: string;
  limits: AbuseLimits;
}

export function emailVerificationRoutes({ db, adminEmail, mailer, origin, productName, limits }: EmailVerificationDeps): GuardedRouter {
  const routes = new GuardedRouter("/api/auth", adminEmail);

  // Open to anyone, so that a link opened signed out is told to sign in (verify_sign_in_required);
  // only the session of the account the link was made for spends it (docs/decisions/0054).
  routes.post("/verify-email", validate("body", verifyEmailSchema), async (req, res) => {
    const { email, verifiedAt } = await verifyEmail(db, (res.locals.body as VerifyEmailInput).token, req.user?.id, new Date());
    res.json({ email, verifiedAt });
  });

  routes.post("/verify-email/resend", limits.verifyEmailResend, async (req, res) => {
    const mailing = { mailer, origin, productName };
    res.status(202).json(await resendVerificationLink(db, req.user!.id, mailing, new Date()));
  });

  return routes;
}
