import {
  type AccountDeletionInput,
  type EmailChangeInput,
  type NotificationsInput,
  type PasswordChangeInput,
  type ProfileInput,
  accountDeletionSchema,
  emailChangeSchema,
  notificationsSchema,
  passwordChangeSchema,
  profileSchema,
  sessionIdSchema,
} from "../../shared/account-settings.ts";
import { exportAccountData } from "./account-export-service.ts";
import { deleteAccount, previewAccountDeletion } from "./account-deletion-service.ts";
import { listSignedInBrowsers, signOutBrowser, signOutOtherBrowsers } from "./account-sessions-service.ts";
import { endSession } from "./end-session.ts";
import { presentCurrentUser } from "./present-user.ts";
import { changeEmailConfirmed, changePassword, setNotifications, updateProfile } from "./settings-service.ts";
import type { PasswordHashCost } from "../config.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";
import type { VerificationMailing } from "./email-verification-service.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import type { FileStore } from "../storage/file-store.ts";

interface SettingsRoutesDeps {
  db: Db;
  store: FileStore;
  adminEmail: string | undefined;
  limits: AbuseLimits;
  passwordHashCost: PasswordHashCost;
  sessionMaxAgeMs: number;
  sessionCookieName: string;
  mailing: VerificationMailing;
}

/** The settings screen's calls (docs/product.md#settings): each one acts on the caller's own account only. */
export function settingsRoutes({ db, store, adminEmail, limits, passwordHashCost, sessionMaxAgeMs, sessionCookieName, mailing }: SettingsRoutesDeps): GuardedRouter {
  const present = (user: Express.User) => presentCurrentUser(user, adminEmail);
  const routes = new GuardedRouter("/api/account", adminEmail);

  routes.patch("/profile", validate("body", profileSchema), async (req, res) => {
    res.json(present(await updateProfile(db, req.user!.id, res.locals.body as ProfileInput)));
  });

  routes.put("/email", limits.passwordConfirm, validate("body", emailChangeSchema), async (req, res) => {
    res.json(present(await changeEmailConfirmed(db, req.user!, res.locals.body as EmailChangeInput, mailing, new Date())));
  });

  routes.put("/password", limits.passwordConfirm, validate("body", passwordChangeSchema), async (req, res) => {
    await changePassword(db, req.user!, res.locals.body as PasswordChangeInput, passwordHashCost, req.sessionID, new Date());
    res.status(204).end();
  });

  routes.put("/notifications", validate("body", notificationsSchema), async (req, res) => {
    res.json(present(await setNotifications(db, req.user!.id, res.locals.body as NotificationsInput)));
  });

  routes.get("/sessions", async (req, res) => {
    res.json({ sessions: await listSignedInBrowsers(db, req.user!.id, req.sessionID, sessionMaxAgeMs) });
  });

  routes.post("/sessions/sign-out-others", async (req, res) => {
    res.json({ signedOut: await signOutOtherBrowsers(db, req.user!.id, req.sessionID) });
  });

  routes.delete("/sessions/:id", validate("params", sessionIdSchema), async (req, res) => {
    await signOutBrowser(db, req.user!.id, (res.locals.params as { id: string }).id, req.sessionID);
    res.status(204).end();
  });

  routes.get("/export", async (req, res) => {
    const now = new Date();
    const data = await exportAccountData(db, req.user!.id, now);
    res.attachment(`plume-${data.profile.username}-${now.toISOString().slice(0, 10)}.json`);
    res.set("Cache-Control", "no-store");
    res.type("application/json").send(JSON.stringify(data, null, 2));
  });

  routes.get("/deletion-preview", async (req, res) => {
    res.json(await previewAccountDeletion(db, req.user!.id));
  });

  routes.delete("/", limits.passwordConfirm, validate("body", accountDeletionSchema), async (req, res) => {
    await deleteAccount({ db, store }, req.user!, (res.locals.body as AccountDeletionInput).currentPassword, new Date());
    // The account's other sessions left the store with it; this browser forgets its cookie too.
    await endSession(req, res, sessionCookieName);
    res.status(204).end();
  });

  return routes;
}
