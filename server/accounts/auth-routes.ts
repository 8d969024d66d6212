import { loginSchema, registerSchema, type RegisterData } from "../../shared/auth.ts";
import { noteSignInOnSession } from "./account-sessions-service.ts";
import { registerAccount } from "./accounts-service.ts";
import { endSession } from "./end-session.ts";
import { type VerificationMailing, mailAddressProof } from "./email-verification-service.ts";
import { HASHES_AT_ONCE, HASHES_WAITING } from "./passwords.ts";
import { presentCurrentUser } from "./present-user.ts";
import type { PassportInstance } from "./passport.ts";
import type { PasswordHashCost } from "../config.ts";
import type { Db } from "../db/client.ts";
import { invalidCredentials } from "../http/errors.ts";
import { inFlightLimit } from "../http/in-flight-limit.ts";
import { chosenLanguage } from "../http/request-language.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";

interface AuthRoutesDeps {
  db: Db;
  passport: PassportInstance;
  adminEmail: string | undefined;
  sessionCookieName: string;
  limits: AbuseLimits;
  passwordHashCost: PasswordHashCost;
  mailing: VerificationMailing;
}

export function authRoutes({ db, passport, adminEmail, sessionCookieName, limits, passwordHashCost, mailing }: AuthRoutesDeps): GuardedRouter {
  const present = (user: Express.User) => presentCurrentUser(user, adminEmail);
  const routes = new GuardedRouter("/api/auth", adminEmail);

  // Signing in and registering each end in a password hash: no more of them are served at once than
  // the hashing queue takes, and the next are refused before they cost a lookup (docs/decisions/0054).
  const hashingSlots = inFlightLimit(HASHES_AT_ONCE + HASHES_WAITING, "Too many sign-ins are being checked right now. Try again in a few seconds.");

  routes.post("/register", hashingSlots, limits.register, validate("body", registerSchema), async (req, res) => {
    // The account's mail is written in the language its owner chose in the interface.
    const user = await registerAccount(db, res.locals.body as RegisterData, passwordHashCost, chosenLanguage(req));
    // A link that cannot be sent now is logged; the account stands, and the dashboard sends another.
    // Whether another account proved the address changes only the mail, never this answer (docs/decisions/0054).
    await mailAddressProof(db, user, mailing, new Date());
    // req.logIn regenerates the session id, so an id planted before sign-up is worthless after it.
    await new Promise<void>((resolve, reject) => req.logIn(user, (error) => (error ? reject(error) : resolve())));
    noteSignInOnSession(req, new Date());
    res.status(201).json(present(user));
  });

  routes.post("/login", hashingSlots, validate("body", loginSchema), limits.signIn, (req, res, next) => {
    passport.authenticate("local", { session: true }, (error: unknown, user: Express.User | false) => {
      if (error) return next(error);
      if (!user) return next(invalidCredentials());
      req.logIn(user, (loginError) => {
        if (loginError) return next(loginError);
        noteSignInOnSession(req, new Date());
        res.json(present(user));
      });
    })(req, res, next);
  });

  routes.post("/logout", async (req, res) => {
    await endSession(req, res, sessionCookieName);
    res.status(204).end();
  });

  routes.get("/user", (req, res) => {
    res.json(req.user ? present(req.user) : null);
  });

  return routes;
}
