import type { AccountAsCaller } from "./passport.ts";
import { z } from "zod";
import {
  accountDeletionSchema,
  eReaderEmailSchema,
  emailChangeSchema,
  explicitBooksSchema,
  notificationsSchema,
  passwordChangeSchema,
  profileSchema,
  sessionIdSchema,
} from "../../shared/account-settings.ts";
import { digestFrequencySchema } from "../../shared/follow-schemas.ts";
import { chooseDigest } from "../follows/follows-service.ts";
import { exportAccountData } from "./account-export-service.ts";
import { deleteAccount, previewAccountDeletion } from "./account-deletion-service.ts";
import { listSignedInBrowsers, signOutBrowser, signOutOtherBrowsers } from "./account-sessions-service.ts";
import { endSession } from "./end-session.ts";
import { presentCurrentUser } from "./present-user.ts";
import { publicShelvesSchema } from "../../shared/shelf-schemas.ts";
import { changeEmailConfirmed, changePassword, setExplicitBooks, setPublicShelves, setNotifications, updateEReaderEmail, updateProfile } from "./settings-service.ts";
import type { PasswordHashCost } from "../config.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import * as answers from "../openapi/answer-schemas.ts";
import type { VerificationMailing } from "./email-verification-service.ts";
import type { OutcomeMailing } from "../moderation/notices-service.ts";
import { tellReportersOfDeletion } from "../ratings/reviews-service.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import type { FileStore } from "../storage/file-store.ts";

export interface SettingsRoutesDeps {
  db: Db;
  store: FileStore;
  limits: AbuseLimits;
  passwordHashCost: PasswordHashCost;
  sessionMaxAgeMs: number;
  sessionCookieName: string;
  /** The proof of a new address; and the senders of notices about the reviews a deleted account takes away. */
  mailing: VerificationMailing & OutcomeMailing;
  /** A new e-mail is unverified, so the answer's account is no longer the admin: presented as the change left it. */
  callerOf: AccountAsCaller;
}

const route = routesOf<SettingsRoutesDeps>();

/**
 * The settings screen's calls (docs/product.md#settings): each one acts on the caller's own account
 * only, so any signed-in account may call them.
 */
export const settingsRoutes = routeGroup("/api/account", [
  route(
    {
      method: "PATCH",
      path: "/api/account/profile",
      access: "signed-in",
      summary: "Change the signed-in account's names and username",
      tag: "settings",
      body: profileSchema,
      answer: { status: 200, description: "The account.", json: answers.currentUserSchema },
      errors: [400, 409],
    },
    async ({ body, caller }, { db, callerOf }) => presentCurrentUser(callerOf(await updateProfile(db, caller.id, body))),
  ),
  route(
    {
      method: "PUT",
      path: "/api/account/email",
      access: "signed-in",
      summary: "Change the account's e-mail (needs the current password); a message is mailed to the new one, answered alike whether another account holds it",
      tag: "settings",
      before: (deps) => [deps.limits.passwordConfirm],
      body: emailChangeSchema,
      answer: { status: 200, description: "The account, its new address not verified yet.", json: answers.currentUserSchema },
      errors: [400, 429],
    },
    async ({ body, caller }, { db, mailing, callerOf }) => presentCurrentUser(callerOf(await changeEmailConfirmed(db, caller, body, mailing, new Date()))),
  ),
  route(
    {
      method: "PUT",
      path: "/api/account/password",
      access: "signed-in",
      summary: "Change the password (needs the current one); every other session of the account is signed out",
      tag: "settings",
      before: (deps) => [deps.limits.passwordConfirm],
      body: passwordChangeSchema,
      answer: { status: 204, description: "Changed." },
      errors: [400, 429],
    },
    ({ body, caller, req }, { db, passwordHashCost }) => changePassword(db, caller, body, passwordHashCost, req.sessionID, new Date()),
  ),
  route(
    {
      method: "PUT",
      path: "/api/account/notifications",
      access: "signed-in",
      summary: "Choose whether a mail is sent when a payment completes",
      tag: "settings",
      body: notificationsSchema,
      answer: { status: 200, description: "The account.", json: answers.currentUserSchema },
      errors: [400],
    },
    async ({ body, caller }, { db, callerOf }) => presentCurrentUser(callerOf(await setNotifications(db, caller.id, body))),
  ),
  route(
    {
      method: "PUT",
      path: "/api/account/digest",
      access: "signed-in",
      summary: "Choose how often new books of followed authors and new editions are mailed: off, instant or weekly",
      tag: "settings",
      body: digestFrequencySchema,
      answer: { status: 200, description: "The account.", json: answers.currentUserSchema },
      errors: [400],
    },
    async ({ body, caller }, { db, callerOf }) => presentCurrentUser(callerOf(await chooseDigest(db, caller.id, body.digestFrequency, new Date()))),
  ),
  route(
    {
      method: "PUT",
      path: "/api/account/explicit-books",
      access: "signed-in",
      summary: "Choose whether explicit books are shown: in the catalog, search, author pages and the account's e-reader apps, and taken",
      tag: "settings",
      body: explicitBooksSchema,
      answer: { status: 200, description: "The account.", json: answers.currentUserSchema },
      errors: [400],
    },
    async ({ body, caller }, { db, callerOf }) => presentCurrentUser(callerOf(await setExplicitBooks(db, caller.id, body))),
  ),
  route(
    {
      method: "PUT",
      path: "/api/account/shelves-public",
      access: "signed-in",
      summary: "Choose whether the caller's shelves are shown to anyone at /readers/{username}",
      tag: "settings",
      body: publicShelvesSchema,
      answer: { status: 200, description: "The account.", json: answers.currentUserSchema },
      errors: [400],
    },
    async ({ body, caller }, { db, callerOf }) => presentCurrentUser(callerOf(await setPublicShelves(db, caller.id, body))),
  ),
  route(
    {
      method: "PUT",
      path: "/api/account/e-reader-email",
      access: "signed-in",
      summary: "Set or clear the address \"Send to my e-reader\" mails books to (a Kindle's @kindle.com address, a PocketBook's @pbsync.com)",
      tag: "settings",
      body: eReaderEmailSchema,
      answer: { status: 200, description: "The account.", json: answers.currentUserSchema },
      errors: [400],
    },
    async ({ body, caller }, { db, callerOf }) => presentCurrentUser(callerOf(await updateEReaderEmail(db, caller.id, body))),
  ),
  route(
    {
      method: "GET",
      path: "/api/account/sessions",
      access: "signed-in",
      summary: "The browsers signed in to the account, this one first",
      tag: "settings",
      answer: { status: 200, description: "The sessions.", json: answers.accountSessionsSchema },
      errors: [],
    },
    async ({ caller, req }, { db, sessionMaxAgeMs }) => ({ sessions: await listSignedInBrowsers(db, caller.id, req.sessionID, sessionMaxAgeMs) }),
  ),
  route(
    {
      method: "POST",
      path: "/api/account/sessions/sign-out-others",
      access: "signed-in",
      summary: "Sign out every browser of the account but this one",
      tag: "settings",
      answer: { status: 200, description: "How many were signed out.", json: z.object({ signedOut: z.number().int() }) },
      errors: [],
    },
    async ({ caller, req }, { db }) => ({ signedOut: await signOutOtherBrowsers(db, caller.id, req.sessionID) }),
  ),
  route(
    {
      method: "DELETE",
      path: "/api/account/sessions/:id",
      access: "signed-in",
      summary: "Sign out one other browser of the account",
      tag: "settings",
      params: sessionIdSchema,
      answer: { status: 204, description: "Signed out." },
      errors: [400, 404, 409],
    },
    ({ params, caller, req }, { db }) => signOutBrowser(db, caller.id, params.id, req.sessionID),
  ),
  route(
    {
      method: "GET",
      path: "/api/account/export",
      access: "signed-in",
      summary: "Everything Plume holds about the account, as a JSON file",
      tag: "settings",
      answer: { status: 200, description: "The export, as an attachment.", json: z.object({ format: z.literal("plume-account-export"), version: z.number().int() }).loose() },
      errors: [],
    },
    // A file to save, not an answer to show: an attachment, and no cache keeps the account's personal data.
    async ({ caller, res }, { db }) => {
      const now = new Date();
      const data = await exportAccountData(db, caller.id, now);
      res.attachment(`plume-${data.profile.username}-${now.toISOString().slice(0, 10)}.json`);
      res.set("Cache-Control", "no-store");
      res.type("application/json").send(JSON.stringify(data, null, 2));
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/account/deletion-preview",
      access: "signed-in",
      summary: "What deleting the account would do: books withdrawn, payments still owed and where they go",
      tag: "settings",
      answer: { status: 200, description: "The preview.", json: answers.accountDeletionPreviewSchema },
      errors: [],
    },
    ({ caller }, { db }) => previewAccountDeletion(db, caller.id),
  ),
  route(
    {
      method: "DELETE",
      path: "/api/account",
      access: "signed-in",
      summary: "Delete the account (needs the current password); books are withdrawn, payment history kept without personal data",
      tag: "settings",
      before: (deps) => [deps.limits.passwordConfirm],
      body: accountDeletionSchema,
      answer: { status: 204, description: "Deleted; this browser is signed out." },
      errors: [400, 429],
    },
    async ({ body, caller, req, res }, { db, store, sessionCookieName, mailing }) => {
      await tellReportersOfDeletion(db, mailing, await deleteAccount({ db, store }, caller, body.currentPassword, new Date()));
      // The account's other sessions left the store with it; this browser forgets its cookie too.
      await endSession(req, res, sessionCookieName);
    },
  ),
]);
