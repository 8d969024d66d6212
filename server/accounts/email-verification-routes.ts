import { z } from "zod";
import { verifyEmailSchema } from "../../shared/email-verification.ts";
import { resendVerificationLink, verifyEmail } from "./email-verification-service.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";

export interface EmailVerificationRoutesDeps {
  db: Db;
  mailer: Mailer;
  /** Where links start (server/http/site-origin.ts). */
  origin: string;
  productName: string;
  limits: AbuseLimits;
}

const route = routesOf<EmailVerificationRoutesDeps>();

export const emailVerificationRoutes = routeGroup("/api/auth", [
  route(
    {
      method: "POST",
      path: "/api/auth/verify-email",
      // A verification link is the caller's proof: it may be opened where nobody is signed in (docs/product.md#accounts).
      access: "public",
      summary: "Prove an account's e-mail address with the token of the link mailed to it, signed in to that account",
      tag: "accounts",
      body: verifyEmailSchema,
      answer: { status: 200, description: "The address now verified, and since when; other accounts' claims on it are dropped.", json: z.object({ email: z.string(), verifiedAt: z.string() }) },
      errors: [400, 401, 403, 410],
    },
    // Open to anyone, so that a link opened signed out is told to sign in (verify_sign_in_required);
    // only the session of the account the link was made for spends it (docs/decisions/0054).
    async ({ body, caller }, { db }) => {
      const { email, verifiedAt } = await verifyEmail(db, body.token, caller?.id, new Date());
      return { email, verifiedAt };
    },
  ),
  route(
    {
      method: "POST",
      path: "/api/auth/verify-email/resend",
      access: "signed-in",
      summary: "Mail a new verification link to the signed-in account's address",
      tag: "accounts",
      before: (deps) => [deps.limits.verifyEmailResend],
      answer: { status: 202, description: "Where the link was sent.", json: z.object({ sentTo: z.string() }) },
      errors: [409, 429, 503],
    },
    ({ caller }, { db, mailer, origin, productName }) => resendVerificationLink(db, caller.id, { mailer, origin, productName }, new Date()),
  ),
]);
