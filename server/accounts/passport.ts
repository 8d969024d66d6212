import passportModule from "passport";
import { Strategy as LocalStrategy } from "passport-local";
import { authenticate } from "./accounts-service.ts";
import { findOpenAccount } from "./users-repository.ts";
import type { PasswordHashCost } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { User as AccountRow } from "../db/schema.ts";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // req.user is the account row; presenters decide what of it leaves the server.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends AccountRow {}
  }
}

export type PassportInstance = InstanceType<typeof passportModule.Authenticator>;

/** One Passport per app (not the module singleton), so several apps can live in one test process. */
export function createPassport(db: Db, passwordHashCost: PasswordHashCost): PassportInstance {
  const passport = new passportModule.Authenticator();
  passport.use(
    new LocalStrategy({ usernameField: "username", passwordField: "password" }, (identifier, password, done) => {
      authenticate(db, identifier, password, passwordHashCost).then((user) => done(null, user ?? false), done);
    }),
  );
  passport.serializeUser<string>((user, done) => done(null, (user as AccountRow).id));
  passport.deserializeUser<string>((id, done) => {
    // A session whose account is gone (or deleted) simply signs out.
    findOpenAccount(db, id).then((user) => done(null, user ?? false), done);
  });
  return passport;
}
