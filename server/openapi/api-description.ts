import { z } from "zod";
import { fixFirstBookFlagSchema } from "../../shared/admin.ts";
import { loginSchema, registerSchema } from "../../shared/auth.ts";
import {
  authorIdSchema,
  bookFieldsSchema,
  bookIdSchema,
  catalogQuerySchema,
  rateSchema,
  ratingParamsSchema,
  userRatingQuerySchema,
} from "../../shared/book-schemas.ts";
import { eReaderKeyIdSchema, eReaderKeyNameSchema } from "../../shared/e-reader-keys.ts";
import { verifyEmailSchema } from "../../shared/email-verification.ts";
import { downloadReportQuerySchema } from "../../shared/download-report.ts";
import { accountLanguageSchema } from "../../shared/account-language.ts";
import {
  accountDeletionSchema,
  emailChangeSchema,
  notificationsSchema,
  passwordChangeSchema,
  profileSchema,
  sessionIdSchema,
} from "../../shared/account-settings.ts";
import { forgotPasswordSchema, resetPasswordSchema } from "../../shared/password-reset.ts";
import { readingPositionSchema } from "../../shared/reading.ts";
import { walletChallengeSchema, walletConnectSchema } from "../../shared/wallet-schemas.ts";
import type { RouteRule } from "../http/route-table.ts";
import * as answers from "./answer-schemas.ts";

/**
 * What each call of the REST API takes and answers, for its OpenAPI description. Which routes are the
 * REST API (docs/product.md#feeds-and-crawling): every route under /api/, and the rating calls kept
 * at the product's paths (/rate, /rating/:bookId), which answer JSON like the rest. The other routes
 * serve documents of their own kinds, described by their own standards: the OPDS catalog (OPDS 1.2
 * and its OpenSearch description), the Atom feeds, the sitemaps and robots.txt, and cover images.
 */
export const isRestApiRoute = ({ path }: Pick<RouteRule, "path">) => path.startsWith("/api/") || path === "/rate" || path.startsWith("/rating/");

type Schema = z.ZodType;
/** The refusals the API gives (server/http/errors.ts), and the 500 of the unexpected. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 416 | 422 | 429 | 500 | 503;

export interface CallDescription {
  summary: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** A JSON body, or a multipart form: its text fields' schema and its file fields (name → required). */
  body?: Schema | { form: z.ZodObject; files: Record<string, boolean> };
  /** The answer when all goes well. */
  success: { status: 200 | 201 | 202 | 204 | 206 | 302; description: string; json?: Schema; binary?: string };
  /** Statuses of refusals besides the access check's 401/403 and the 500 any call can answer. */
  errors: ErrorStatus[];
}

const bookForm = (fileRequired: boolean) => ({ form: bookFieldsSchema, files: { file: fileRequired, coverImage: false } });
const bookFileAnswer = "The book's own media type (application/pdf, application/msword or the DOCX type)";

export const API_CALLS: Record<string, CallDescription> = {
  "POST /api/auth/register": {
    summary: "Create an account and sign in; its e-mail is an unproven claim, answered alike whether another account holds it",
    tag: "accounts",
    body: registerSchema,
    success: { status: 201, description: "The new account, signed in (a session cookie is set).", json: answers.currentUserSchema },
    errors: [400, 409, 429, 503],
  },
  "POST /api/auth/login": {
    summary: "Sign in with a username or proven e-mail and a password",
    tag: "accounts",
    body: loginSchema,
    success: { status: 200, description: "The account (a session cookie is set).", json: answers.currentUserSchema },
    errors: [400, 401, 429, 503],
  },
  "POST /api/auth/logout": { summary: "Sign out", tag: "accounts", success: { status: 204, description: "The session is ended." }, errors: [] },
  "POST /api/auth/forgot-password": {
    summary: "Ask for a password reset link by e-mail; the answer is the same whether or not an account has the address",
    tag: "accounts",
    body: forgotPasswordSchema,
    success: { status: 202, description: "Accepted: a verified address of an account gets a link valid one hour.", json: z.object({ message: z.string() }) },
    errors: [400, 429],
  },
  "POST /api/auth/reset-password": {
    summary: "Set a new password with the token of a reset link; the account's other sessions are signed out",
    tag: "accounts",
    body: resetPasswordSchema,
    success: { status: 204, description: "The password is changed and every reset link of the account spent." },
    errors: [400, 410],
  },
  "GET /api/auth/user": {
    summary: "The signed-in account, or null when nobody is signed in",
    tag: "accounts",
    success: { status: 200, description: "The account; null without a session (an expired or signed-out one included).", json: answers.currentUserSchema.nullable() },
    errors: [],
  },
  "POST /api/auth/verify-email": {
    summary: "Prove an account's e-mail address with the token of the link mailed to it, signed in to that account",
    tag: "accounts",
    body: verifyEmailSchema,
    success: { status: 200, description: "The address now verified, and since when; other accounts' claims on it are dropped.", json: z.object({ email: z.string(), verifiedAt: z.string() }) },
    errors: [400, 401, 403, 410],
  },
  "POST /api/auth/verify-email/resend": {
    summary: "Mail a new verification link to the signed-in account's address",
    tag: "accounts",
    success: { status: 202, description: "Where the link was sent.", json: z.object({ sentTo: z.string() }) },
    errors: [409, 429, 503],
  },
  "PUT /api/auth/language": {
    summary: "Set the language the signed-in account's mail is written in (the interface language it chose)",
    tag: "accounts",
    body: accountLanguageSchema,
    success: { status: 204, description: "Saved." },
    errors: [400],
  },
  "PATCH /api/account/profile": {
    summary: "Change the signed-in account's names and username",
    tag: "settings",
    body: profileSchema,
    success: { status: 200, description: "The account.", json: answers.currentUserSchema },
    errors: [400, 409],
  },
  "PUT /api/account/email": {
    summary: "Change the account's e-mail (needs the current password); a message is mailed to the new one, answered alike whether another account holds it",
    tag: "settings",
    body: emailChangeSchema,
    success: { status: 200, description: "The account, its new address not verified yet.", json: answers.currentUserSchema },
    errors: [400, 429],
  },
  "PUT /api/account/password": {
    summary: "Change the password (needs the current one); every other session of the account is signed out",
    tag: "settings",
    body: passwordChangeSchema,
    success: { status: 204, description: "Changed." },
    errors: [400, 429],
  },
  "PUT /api/account/notifications": {
    summary: "Choose whether a mail is sent when a payment completes",
    tag: "settings",
    body: notificationsSchema,
    success: { status: 200, description: "The account.", json: answers.currentUserSchema },
    errors: [400],
  },
  "GET /api/account/sessions": {
    summary: "The browsers signed in to the account, this one first",
    tag: "settings",
    success: { status: 200, description: "The sessions.", json: answers.accountSessionsSchema },
    errors: [],
  },
  "POST /api/account/sessions/sign-out-others": {
    summary: "Sign out every browser of the account but this one",
    tag: "settings",
    success: { status: 200, description: "How many were signed out.", json: z.object({ signedOut: z.number().int() }) },
    errors: [],
  },
  "DELETE /api/account/sessions/{id}": {
    summary: "Sign out one other browser of the account",
    tag: "settings",
    params: sessionIdSchema,
    success: { status: 204, description: "Signed out." },
    errors: [400, 404, 409],
  },
  "GET /api/account/export": {
    summary: "Everything Plume holds about the account, as a JSON file",
    tag: "settings",
    success: { status: 200, description: "The export, as an attachment.", json: z.object({ format: z.literal("plume-account-export"), version: z.number().int() }).loose() },
    errors: [],
  },
  "GET /api/account/deletion-preview": {
    summary: "What deleting the account would do: books withdrawn, payments still owed and where they go",
    tag: "settings",
    success: { status: 200, description: "The preview.", json: answers.accountDeletionPreviewSchema },
    errors: [],
  },
  "GET /api/account/storage": {
    summary: "What the account's books keep and the most they may keep (docs/decisions/0055)",
    tag: "books",
    success: { status: 200, description: "The storage used and its limit, in bytes.", json: answers.storageUsageSchema },
    errors: [],
  },
  "DELETE /api/account": {
    summary: "Delete the account (needs the current password); books are withdrawn, payment history kept without personal data",
    tag: "settings",
    body: accountDeletionSchema,
    success: { status: 204, description: "Deleted; this browser is signed out." },
    errors: [400, 429],
  },
  "GET /api/login": {
    summary: "Send a visitor to the sign-in screen",
    tag: "accounts",
    query: z.object({ next: z.string().optional().meta({ description: "A path on this site to return to after signing in." }) }),
    success: { status: 302, description: "Redirect to /login, with `next` when it is a safe path." },
    errors: [],
  },
  "POST /api/wallet/nonce": {
    summary: "A one-time nonce (10 minutes) for a Sign-In with Ethereum message naming this address",
    tag: "accounts",
    body: walletChallengeSchema,
    success: {
      status: 200,
      description: "The nonce, the address checksummed as the message must carry it, the chain id and when the nonce expires.",
      json: z.object({ nonce: z.string(), walletAddress: z.string(), chainId: z.number().int(), expiresAt: z.string() }),
    },
    errors: [400, 409],
  },
  "POST /api/wallet/connect": {
    summary: "Save the signed-in author's wallet, proven by a signed Sign-In with Ethereum (EIP-4361) message",
    tag: "accounts",
    body: walletConnectSchema,
    success: { status: 200, description: "The account with its wallet.", json: answers.currentUserSchema },
    errors: [400, 409],
  },
  "GET /api/config": { summary: "Public settings: the product's name, the token and the reward offer", tag: "platform", success: { status: 200, description: "The settings.", json: answers.publicConfigSchema }, errors: [] },
  "GET /api/stats/public": { summary: "The platform's totals over published books", tag: "platform", success: { status: 200, description: "The totals.", json: answers.publicStatsSchema }, errors: [] },
  "GET /api/openapi.json": { summary: "This description", tag: "platform", success: { status: 200, description: "The OpenAPI 3.1 document.", json: z.record(z.string(), z.unknown()) }, errors: [] },
  "GET /api/books": {
    summary: "A page of the catalog: published books, filtered, searched and sorted",
    tag: "books",
    query: catalogQuerySchema,
    success: { status: 200, description: "The page's books.", json: z.array(answers.bookCardSchema) },
    errors: [400],
  },
  "POST /api/books": {
    summary: "Publish a book (PDF, DOC or DOCX, an optional cover)",
    tag: "books",
    body: bookForm(true),
    success: { status: 201, description: "The published book.", json: answers.bookCardSchema },
    errors: [400, 413, 415, 429],
  },
  "GET /api/books/{id}": {
    summary: "A book (an unpublished one only for its author and the admin)",
    tag: "books",
    params: bookIdSchema,
    success: { status: 200, description: "The book.", json: answers.bookCardSchema },
    errors: [400, 404],
  },
  "PUT /api/books/{id}": {
    summary: "Edit one's own book: its fields, and optionally a new cover",
    tag: "books",
    params: bookIdSchema,
    body: { form: bookFieldsSchema, files: { coverImage: false } },
    success: { status: 200, description: "The book as edited.", json: answers.bookCardSchema },
    errors: [400, 404, 413, 415, 429],
  },
  "DELETE /api/books/{id}": { summary: "Withdraw one's own book", tag: "books", params: bookIdSchema, success: { status: 204, description: "Withdrawn." }, errors: [400, 404] },
  "POST /api/books/{id}/download": {
    summary: "Download a book; a counted download pays its author (docs/product.md#counting-downloads)",
    tag: "books",
    params: bookIdSchema,
    success: { status: 200, description: "The book's file, as an attachment.", binary: bookFileAnswer },
    errors: [400, 404, 429],
  },
  "POST /api/books/{id}/read": {
    summary: "Open a book to read in the browser; it counts exactly like a download",
    tag: "reading",
    params: bookIdSchema,
    success: { status: 200, description: "The book as the reader shows it, and the page this reader was on.", json: answers.openedBookSchema },
    errors: [400, 404, 429],
  },
  "GET /api/books/{id}/read/file": {
    summary: "The file of a PDF book the caller opened, for the reader (byte ranges allowed)",
    tag: "reading",
    params: bookIdSchema,
    success: { status: 200, description: "The PDF, whole, or the range asked for (206). The whole file counts against the download limit, a range its megabytes against the reader's hourly limit.", binary: "application/pdf" },
    errors: [400, 404, 416, 429],
  },
  "GET /api/books/{id}/read/view": {
    summary: "The reading view of a Word book the caller opened",
    tag: "reading",
    params: bookIdSchema,
    success: { status: 200, description: "Its pages as sanitized HTML (made once, at the first opening; docs/decisions/0051).", json: answers.wordViewSchema },
    // 422 book_view_unavailable: it cannot be made; 503 book_view_preparing or server_busy, with Retry-After.
    errors: [400, 404, 422, 429, 503],
  },
  "PUT /api/books/{id}/read/position": {
    summary: "Remember the page the caller is on in a book they opened",
    tag: "reading",
    params: bookIdSchema,
    body: readingPositionSchema,
    success: { status: 204, description: "Remembered." },
    // A Word book's pages are known once its view is made: 422 and 503 as for the view.
    errors: [400, 404, 422, 503],
  },
  "GET /api/authors/{id}": {
    summary: "An author's public profile and published books",
    tag: "authors",
    params: authorIdSchema,
    success: { status: 200, description: "The profile.", json: answers.authorProfileSchema },
    errors: [400, 404],
  },
  "GET /api/authors/{id}/books": {
    summary: "An author's books (unpublished ones only for the author and the admin)",
    tag: "authors",
    params: authorIdSchema,
    success: { status: 200, description: "The books, newest first.", json: z.array(answers.bookCardSchema) },
    errors: [400],
  },
  "GET /api/authors/{id}/stats": {
    summary: "An author's counted downloads, in total and by month",
    tag: "authors",
    params: authorIdSchema,
    success: { status: 200, description: "The figures.", json: answers.authorStatsSchema },
    errors: [400],
  },
  "GET /api/authors/{id}/payments": {
    summary: "An author's payments (the author's own, or the admin)",
    tag: "authors",
    params: authorIdSchema,
    success: { status: 200, description: "The payments, newest first, each with its timeline and, while pending, why it waits.", json: z.array(answers.authorPaymentSchema) },
    errors: [400],
  },
  "GET /api/authors/{id}/download-report": {
    summary: "An author's logged downloads per book and month, counted or not counted with the reason (the author's own, or the admin)",
    tag: "authors",
    params: authorIdSchema,
    query: downloadReportQuerySchema,
    success: { status: 200, description: "The report; each book's counted and not counted add up to its logged downloads.", json: answers.downloadReportSchema },
    errors: [400, 404],
  },
  "GET /rating/{bookId}": {
    summary: "A book's average rating and number of ratings",
    tag: "ratings",
    params: ratingParamsSchema,
    success: { status: 200, description: "The rating.", json: answers.bookRatingSchema },
    errors: [400, 404],
  },
  "POST /rate": {
    summary: "Rate a book, in one's own name, never one's own book",
    tag: "ratings",
    body: rateSchema,
    success: { status: 201, description: "The book's rating after this one.", json: answers.bookRatingSchema },
    errors: [400, 404, 429],
  },
  "GET /api/reviews": {
    summary: "A reader's own rating of a book (the reader, or the admin)",
    tag: "ratings",
    query: userRatingQuerySchema,
    success: { status: 200, description: "The rating, 0 when none.", json: answers.userRatingSchema },
    errors: [400, 404],
  },
  "GET /api/e-reader-keys": {
    summary: "The caller's e-reader keys (never the keys themselves)",
    tag: "e-reader keys",
    success: { status: 200, description: "The keys.", json: z.array(answers.eReaderKeySchema) },
    errors: [],
  },
  "POST /api/e-reader-keys": {
    summary: "Create an e-reader key for OPDS downloads; the key is shown this once",
    tag: "e-reader keys",
    body: eReaderKeyNameSchema,
    success: { status: 201, description: "The key, in full.", json: answers.createdEReaderKeySchema },
    errors: [400, 409],
  },
  "DELETE /api/e-reader-keys/{id}": {
    summary: "Revoke one of the caller's e-reader keys",
    tag: "e-reader keys",
    params: eReaderKeyIdSchema,
    success: { status: 204, description: "Revoked." },
    errors: [400, 404],
  },
  "GET /api/admin/overview-debug": { summary: "The admin's overview of accounts and books", tag: "admin", success: { status: 200, description: "The overview.", json: answers.adminOverviewSchema }, errors: [] },
  "GET /api/admin/payment-diagnostics": {
    summary: "The admin's payment diagnostics: first-book bonuses, the payout queue, the reconciliation, suspicious activity",
    tag: "admin",
    success: { status: 200, description: "The diagnostics.", json: answers.paymentDiagnosticsSchema },
    errors: [],
  },
  "GET /api/admin/payout-sla": {
    summary: "The payout SLA: p50 and p99 from owed to completed over 30 days, and the oldest payment still owed",
    tag: "admin",
    success: { status: 200, description: "The figures; the percentiles are null without completed payments.", json: answers.payoutSlaSchema },
    errors: [],
  },
  "POST /api/admin/users/{id}/reset-link": {
    summary: "Make a password reset link for an account (one without e-mail too), shown once",
    tag: "admin",
    params: authorIdSchema,
    success: { status: 201, description: "The link, valid one hour and once.", json: z.object({ url: z.string(), expiresAt: z.string() }) },
    errors: [400, 404],
  },
  "POST /api/admin/fix-first-book-flag": {
    summary: "Set or clear a book's first-book flag; an author has one first book at most (409 first_book_taken)",
    tag: "admin",
    body: fixFirstBookFlagSchema,
    success: { status: 200, description: "The flag as set, and the payments it made owed.", json: answers.firstBookFlagFixSchema },
    errors: [400, 404, 409],
  },
};
