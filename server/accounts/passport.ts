import passportModule from "passport";
import { Strategy as LocalStrategy } from "passport-local";
import { authenticate } from "./accounts-service.ts";
import { findOpenAccount } from "./users-repository.ts";
import type { PasswordHashCost } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { User as AccountRow } from "../db/schema.ts";
import { isAdmin } from "./accounts-policy.ts";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // req.user is the account row, with whether it is the admin decided once, when the session (or
    // an e-reader key) names it; presenters decide what of it leaves the server.
    interface User extends AccountRow {
      isAdmin: boolean;
    }
  }
}

export type PassportInstance = InstanceType<typeof passportModule.Authenticator>;

/** The account as a request's caller: the admin flag is decided here, once, for every route and policy after. */
export const callerOf = (account: AccountRow, adminEmail: string | undefined): Express.User => ({ ...account, isAdmin: isAdmin(account, adminEmail) });

/** callerOf with the app's ADMIN_EMAIL given: what a route uses to answer an account it just changed as the next request will see it. */
export type AccountAsCaller = (account: Omit<Express.User, "isAdmin">) => Express.User;

/** One Passport per app (not the module singleton), so several apps can live in one test process. */
export function createPassport(db: Db, passwordHashCost: PasswordHashCost, adminEmail: string | undefined): PassportInstance {
  const passport = new passportModule.Authenticator();
  passport.use(
    new LocalStrategy({ usernameField: "username", passwordField: "password" }, (identifier, password, done) => {
      authenticate(db, identifier, password, passwordHashCost).then((user) => done(null, user ? callerOf(user, adminEmail) : false), done);
    }),
  );
  passport.serializeUser<string>((user, done) => done(null, (user as AccountRow).id));
  passport.deserializeUser<string>((id, done) => {
    // A session whose account is gone (or deleted, or suspended: docs/product.md#moderation) simply signs out.
    findOpenAccount(db, id).then((user) => done(null, user && user.suspendedAt === null ? callerOf(user, adminEmail) : false), done);
  });
  return passport;
}
