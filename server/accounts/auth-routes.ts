import { Router } from "express";
import { loginSchema, registerSchema, type RegisterData } from "../../shared/auth.ts";
import { registerAccount } from "./accounts-service.ts";
import { presentCurrentUser } from "./present-user.ts";
import type { PassportInstance } from "./passport.ts";
import { requireAuth } from "../http/require-auth.ts";
import type { Db } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import { invalidCredentials } from "../http/errors.ts";
import { validate } from "../http/validate.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";

interface AuthRoutesDeps {
  db: Db;
  passport: PassportInstance;
  adminEmail: string | undefined;
  sessionCookieName: string;
  limits: AbuseLimits;
}

export function authRoutes({ db, passport, adminEmail, sessionCookieName, limits }: AuthRoutesDeps): Router {
  const router = Router();
  const present = (user: User) => presentCurrentUser(user, adminEmail);

  router.post("/register", limits.register, validate("body", registerSchema), async (req, res) => {
    const user = await registerAccount(db, res.locals.body as RegisterData);
    // req.logIn regenerates the session id, so an id planted before sign-up is worthless after it.
    await new Promise<void>((resolve, reject) => req.logIn(user, (error) => (error ? reject(error) : resolve())));
    res.status(201).json(present(user));
  });

  router.post("/login", validate("body", loginSchema), limits.signIn, (req, res, next) => {
    passport.authenticate("local", { session: true }, (error: unknown, user: User | false) => {
      if (error) return next(error);
      if (!user) return next(invalidCredentials());
      req.logIn(user, (loginError) => (loginError ? next(loginError) : res.json(present(user))));
    })(req, res, next);
  });

  router.post("/logout", (req, res, next) => {
    req.logout((logoutError) => {
      if (logoutError) return next(logoutError);
      req.session.destroy((destroyError) => {
        if (destroyError) return next(destroyError);
        res.clearCookie(sessionCookieName, { path: "/" });
        res.status(204).end();
      });
    });
  });

  router.get("/user", requireAuth, (req, res) => {
    res.json(present(req.user!));
  });

  return router;
}
