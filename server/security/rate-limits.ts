import { type Request, type RequestHandler, type Response, Router } from "express";
import { type Options, ipKeyGenerator, rateLimit } from "express-rate-limit";
import type { RateLimitSettings } from "../config.ts";
import type { Db } from "../db/client.ts";
import { findUserByIdentifier } from "../accounts/users-repository.ts";
import { signedInCallerOf } from "../http/access.ts";
import { HttpError, tooManyRequests } from "../http/errors.ts";
import { incrementHits } from "./rate-limit-repository.ts";
import { DatabaseRateLimitStore } from "./rate-limit-store.ts";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** The reader's bytes are counted in KiB: an hour's budget stays far inside the counter's integer. */
const KIB = 1024;

/** The wait a Retry-After header says, in words: minutes, or hours past two. */
function waitOf(res: Response): string {
  const minutes = Math.max(1, Math.ceil(Number(res.getHeader("Retry-After") ?? 60) / 60));
  if (minutes <= 120) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `${Math.ceil(minutes / 60)} hours`;
}

/** The 429 of every limit, with the wait its Retry-After header already says. */
function refusal(res: Response, message: string) {
  return tooManyRequests(`${message} Try again in ${waitOf(res)}.`);
}

/** Runs an express-rate-limit middleware from within a route: resolves when it lets the request through. */
const passThrough = (limit: RequestHandler, req: Request, res: Response) =>
  new Promise<void>((resolve, reject) => {
    void limit(req, res, (error?: unknown) => (error ? reject(error as Error) : resolve()));
  });

/** The abuse limits of OWASP ASVS 6.3 and of the reward rules, one middleware list per guarded call. */
export interface AbuseLimits {
  signIn: RequestHandler;
  register: RequestHandler;
  upload: RequestHandler;
  download: RequestHandler;
  rate: RequestHandler;
  /** Follows and unfollows, per account (docs/product.md#follows). */
  follow: RequestHandler;
  /** Books put on or taken off a shelf (docs/product.md#shelves). */
  shelve: RequestHandler;
  /** A digest's unsubscribe link, per address, every well-formed attempt counted (forged ones too): no session is needed, so the address is all there is. */
  unsubscribe: RequestHandler;
  /** Wrong or revoked e-reader keys, per address (docs/product.md#opds). */
  eReaderKeyFailures: RequestHandler;
  /** "Forgot password?", per address and per e-mail asked for (docs/product.md#password-reset). */
  passwordReset: RequestHandler;
  /** "Send the link again" for an e-mail verification, per account (docs/product.md#accounts). */
  verifyEmailResend: RequestHandler;
  /** Changes confirmed by the current password, per account (docs/product.md#settings). */
  passwordConfirm: RequestHandler;
  /** Books mailed to the account's e-reader, per account and day; only mails that went out count (docs/product.md#send-to-e-reader). */
  eReaderSend: RequestHandler;
  /** New editions of one's books, per account and day; only those published count (docs/product.md#editions). */
  editions: RequestHandler;
  /** Reviews written or changed, per account and day (docs/product.md#reviews). */
  reviews: RequestHandler;
  /** "Helpful" votes given or taken back, per account and day. */
  helpfulVotes: RequestHandler;
  /** An author's replies to reviews written or changed, per account and day. */
  reviewReplies: RequestHandler;
  /** Notices, per address, every attempt counted (docs/product.md#moderation). */
  noticesFromAddress: RequestHandler;
  /** Notices, once checked: per e-mail address given, and per book or author reported. */
  noticesAbout: RequestHandler;
  /**
   * What the browser reader takes of a PDF, per account (docs/product.md#reading, docs/decisions/0049):
   * the whole file is the whole book, as a download is, and counts against the download limit; a part
   * (a Range) counts its bytes against RATE_LIMIT_READ_MB_PER_ACCOUNT an hour. Throws the 429.
   */
  readFile(req: Request, res: Response, part: { start: number; end: number } | undefined): Promise<void>;
}

const clientAddress: Options["keyGenerator"] = (req) => ipKeyGenerator(req.ip ?? "");
const everyone: Options["keyGenerator"] = () => "all";
const signedInAccount: Options["keyGenerator"] = (req) => signedInCallerOf(req).id;
// The identifier as typed, folded the way accounts are looked up, so "Ana" and "ana " share a count.
const signInIdentifier = (req: Request) =>
  String((req.body as { username?: unknown }).username ?? "").normalize("NFKC").trim().toLowerCase();
const resetEmail: Options["keyGenerator"] = (req) => String((req.body as { email?: unknown }).email ?? "").trim().toLowerCase();
// A notice without an address (the minors category) is limited by its sender's network alone.
const noticeEmail: Options["keyGenerator"] = (req) => String((req.body as { email?: unknown }).email ?? "").trim().toLowerCase() || `no-email|${ipKeyGenerator(req.ip ?? "")}`;
const noticeSubject: Options["keyGenerator"] = (req) => {
  const { bookId, authorId, reviewId } = req.body as { bookId?: number; authorId?: string; reviewId?: number };
  return reviewId !== undefined ? `review:${reviewId}` : bookId === undefined ? `author:${authorId}` : `book:${bookId}`;
};

/**
 * Whom a sign-in tries: the account its username or proven e-mail names, so the two spellings of one
 * account share one count; else the identifier as typed, so unknown names are limited alike and a
 * refusal tells nothing about which exist (docs/decisions/0054). Looked up once per request, for all
 * the limits that ask.
 */
function signInTargets(db: Db): (req: Request) => Promise<string> {
  const targets = new WeakMap<Request, Promise<string>>();
  return (req) => {
    let target = targets.get(req);
    if (!target) {
      const typed = signInIdentifier(req);
      target = findUserByIdentifier(db, typed).then((user) => (user ? `account:${user.id}` : `typed:${typed}`));
      targets.set(req, target);
    }
    return target;
  };
}

/**
 * What a sign-in limit counts. Only a wrong password (401) is a failure: neither invalid input nor
 * a refusal by a limit (429, 503) is a guess at a password, and counting the limits' own refusals
 * would keep an account locked for as long as someone keeps knocking (docs/decisions/0021).
 */
type Counted = "all" | "failed-passwords" | "sign-ins" | "created" | "sent" | "succeeded";
const COUNTED: Record<Exclude<Counted, "all">, Partial<Options>> = {
  "failed-passwords": { skipSuccessfulRequests: true, requestWasSuccessful: (_req, res) => res.statusCode !== 401 },
  "sign-ins": { skipFailedRequests: true, requestWasSuccessful: (_req, res) => res.statusCode === 200 },
  created: { skipFailedRequests: true, requestWasSuccessful: (_req, res) => res.statusCode === 201 },
  sent: { skipFailedRequests: true, requestWasSuccessful: (_req, res) => res.statusCode === 200 },
  succeeded: { skipFailedRequests: true, requestWasSuccessful: (_req, res) => res.statusCode < 400 },
};

interface LimitSpec {
  name: string;
  windowMs: number;
  limit: number;
  keyGenerator: Options["keyGenerator"];
  message: string;
  counts?: Counted;
  /** A refusal with a code of its own, for a limit the reader must be told about in words of its own. */
  code?: string;
}

export function createAbuseLimits(db: Db, settings: RateLimitSettings): AbuseLimits {
  const signInTarget = signInTargets(db);
  const signInAccount: Options["keyGenerator"] = signInTarget;
  const signInAccountFromAddress: Options["keyGenerator"] = async (req) => `${await signInTarget(req)}|${ipKeyGenerator(req.ip ?? "")}`;
  const limiter = ({ name, windowMs, limit, keyGenerator, message, counts = "all", code }: LimitSpec): RequestHandler =>
    rateLimit({
      windowMs,
      limit,
      keyGenerator,
      store: new DatabaseRateLimitStore(db, `${name}:`),
      standardHeaders: "draft-7",
      legacyHeaders: false,
      ...(counts === "all" ? {} : COUNTED[counts]),
      handler: (_req, res, next) => next(code ? new HttpError(429, code, `${message} Try again in ${waitOf(res)}.`) : refusal(res, message)),
    });
  const download = limiter({ name: "download-account", windowMs: HOUR_MS, limit: settings.downloadsPerAccount, keyGenerator: signedInAccount, message: "Too many downloads." });
  const readBudgetKib = settings.readMbPerAccount * KIB;

  return {
    // Failures are counted per account and address, so guesses from elsewhere cannot lock a person
    // out of their own address; the per-account ceiling, ten times higher, stops a guesser with many
    // addresses. Successful sign-ins are limited too: each one costs a password hash.
    signIn: Router().use(
      limiter({
        name: "sign-in-ip",
        windowMs: 15 * MINUTE_MS,
        limit: settings.signInPerIp,
        keyGenerator: clientAddress,
        message: "Too many failed sign-ins from your network.",
        counts: "failed-passwords",
      }),
      limiter({
        name: "sign-in-account-address",
        windowMs: 15 * MINUTE_MS,
        limit: settings.signInPerAccountAddress,
        keyGenerator: signInAccountFromAddress,
        message: "Too many failed sign-ins for this account from your network.",
        counts: "failed-passwords",
      }),
      limiter({
        name: "sign-in-account",
        windowMs: 15 * MINUTE_MS,
        limit: settings.signInPerAccount,
        keyGenerator: signInAccount,
        message: "Too many failed sign-ins for this account.",
        counts: "failed-passwords",
      }),
      limiter({
        name: "sign-in-success-ip",
        windowMs: 15 * MINUTE_MS,
        limit: settings.signInSuccessPerIp,
        keyGenerator: clientAddress,
        message: "Too many sign-ins from your network.",
        counts: "sign-ins",
      }),
      limiter({
        name: "sign-in-success-account",
        windowMs: 15 * MINUTE_MS,
        limit: settings.signInSuccessPerAccount,
        keyGenerator: signInAccount,
        message: "Too many sign-ins for this account.",
        counts: "sign-ins",
      }),
    ),
    // Per address, attempts included (a guesser of taken names is one too), with room for a classroom
    // or an office behind one address; then a ceiling on the accounts made from all addresses together,
    // which only created accounts fill, so invalid or refused attempts cannot close sign-ups for
    // everyone (docs/decisions/0048).
    register: Router().use(
      limiter({ name: "register-ip", windowMs: HOUR_MS, limit: settings.registerPerIp, keyGenerator: clientAddress, message: "Too many new accounts from your network." }),
      limiter({
        name: "register-all",
        windowMs: 10 * MINUTE_MS,
        limit: settings.registerAllAddresses,
        keyGenerator: everyone,
        message: "Too many new accounts are being made right now.",
        counts: "created",
      }),
    ),
    upload: limiter({ name: "upload-account", windowMs: HOUR_MS, limit: settings.uploadsPerAccount, keyGenerator: signedInAccount, message: "Too many uploads." }),
    download,
    // Paging a PDF is many small Range requests; counting them one by one would either stop a reader
    // or let a fetcher take whole books a part at a time, so parts count what they weigh. The whole
    // file is what pdf.js asks for once per opening (then it reads parts), and what a fetcher wants.
    readFile: async (req, res, part) => {
      if (!part) return passThrough(download, req, res);
      const kib = Math.ceil((part.end - part.start + 1) / KIB);
      const { totalHits, resetTime } = await incrementHits(db, `read-bytes-account:${signedInCallerOf(req).id}`, HOUR_MS, kib);
      if (totalHits <= readBudgetKib) return;
      res.setHeader("Retry-After", String(Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000))));
      throw refusal(res, "Too many parts of books fetched.");
    },
    verifyEmailResend: limiter({
      name: "verify-email-account",
      windowMs: HOUR_MS,
      limit: settings.verifyEmailPerAccount,
      keyGenerator: signedInAccount,
      message: "Too many verification links asked for. Try again in an hour.",
    }),
    // Every attempt counts: a stolen session must not become a way to guess the password behind it.
    passwordConfirm: limiter({
      name: "password-confirm-account",
      windowMs: 15 * MINUTE_MS,
      limit: settings.passwordConfirmPerAccount,
      keyGenerator: signedInAccount,
      message: "Too many attempts with the current password.",
    }),
    // Only mails that went out count (a refused or failed send is decremented), so a reader whose
    // e-reader address was wrong is not locked out for the day; the hit is taken before the mail, so
    // sends at the same instant cannot all pass the last free one.
    eReaderSend: limiter({
      name: "e-reader-send-account",
      windowMs: DAY_MS,
      limit: settings.eReaderSendsPerAccount,
      keyGenerator: signedInAccount,
      message: `You have sent ${settings.eReaderSendsPerAccount} books to your e-reader today, the most a day allows.`,
      counts: "sent",
      code: "e_reader_send_limit",
    }),
    follow: limiter({ name: "follow-account", windowMs: HOUR_MS, limit: settings.followsPerAccount, keyGenerator: signedInAccount, message: "Too many follows." }),
    // A reader's clicks, never a crawl: room to sort a whole library in an hour, not to churn the rows.
    shelve: limiter({
      name: "shelve-account",
      windowMs: HOUR_MS,
      limit: settings.shelvingsPerAccount,
      keyGenerator: signedInAccount,
      message: `You have moved books between your shelves ${settings.shelvingsPerAccount} times in the last hour, the most an hour allows.`,
      code: "shelving_limit",
    }),
    unsubscribe: limiter({ name: "unsubscribe-ip", windowMs: 15 * MINUTE_MS, limit: settings.unsubscribesPerIp, keyGenerator: clientAddress, message: "Too many unsubscribe requests from your network." }),
    // Only a published edition counts (201): a refused file is not a new edition, and the author may fix it and try again.
    editions: limiter({
      name: "editions-account",
      windowMs: DAY_MS,
      limit: settings.editionsPerAccount,
      keyGenerator: signedInAccount,
      message: `You have published ${settings.editionsPerAccount} new editions today, the most a day allows.`,
      counts: "created",
      code: "edition_limit",
    }),
    // Only what was kept counts (a refused review is no review), so a reader fixing a too-short text is not locked out.
    reviews: limiter({
      name: "reviews-account",
      windowMs: DAY_MS,
      limit: settings.reviewsPerAccount,
      keyGenerator: signedInAccount,
      message: `You have written or changed ${settings.reviewsPerAccount} reviews today, the most a day allows.`,
      counts: "succeeded",
      code: "review_limit",
    }),
    helpfulVotes: limiter({
      name: "helpful-votes-account",
      windowMs: DAY_MS,
      limit: settings.helpfulVotesPerAccount,
      keyGenerator: signedInAccount,
      message: `You have marked ${settings.helpfulVotesPerAccount} reviews helpful today, the most a day allows.`,
      counts: "succeeded",
      code: "helpful_vote_limit",
    }),
    reviewReplies: limiter({
      name: "review-replies-account",
      windowMs: DAY_MS,
      limit: settings.reviewRepliesPerAccount,
      keyGenerator: signedInAccount,
      message: `You have written or changed ${settings.reviewRepliesPerAccount} replies today, the most a day allows.`,
      counts: "succeeded",
      code: "review_reply_limit",
    }),
    rate: limiter({ name: "rate-account", windowMs: HOUR_MS, limit: settings.ratingsPerAccount, keyGenerator: signedInAccount, message: "Too many ratings." }),
    // Per address only: a limit per account would let anyone lock a reader's e-reader out by naming them.
    // The keys' 80 bits make guessing hopeless anyway; the limit stops a scanner early.
    eReaderKeyFailures: limiter({
      name: "e-reader-key-ip",
      windowMs: 15 * MINUTE_MS,
      limit: settings.eReaderKeyFailuresPerIp,
      keyGenerator: clientAddress,
      message: "Too many wrong e-reader keys from your network.",
      counts: "failed-passwords",
    }),
    // Every request counts, whether the address has an account or not, so a limit tells nothing either.
    // Per e-mail too: a mailbox is not flooded with links by someone using many addresses.
    passwordReset: Router().use(
      limiter({ name: "password-reset-ip", windowMs: HOUR_MS, limit: settings.passwordResetPerIp, keyGenerator: clientAddress, message: "Too many password reset requests from your network." }),
      limiter({ name: "password-reset-account", windowMs: HOUR_MS, limit: settings.passwordResetPerAccount, keyGenerator: resetEmail, message: "Too many password reset requests for this address." }),
    ),
    noticesFromAddress: limiter({ name: "notices-ip", windowMs: HOUR_MS, limit: settings.noticesPerIp, keyGenerator: clientAddress, message: "Too many notices from your network." }),
    // Per subject too: a flood about one book, from many addresses, must not bury the other notices.
    noticesAbout: Router().use(
      limiter({ name: "notices-email", windowMs: DAY_MS, limit: settings.noticesPerEmail, keyGenerator: noticeEmail, message: "Too many notices from this e-mail address." }),
      limiter({ name: "notices-subject", windowMs: HOUR_MS, limit: settings.noticesPerSubject, keyGenerator: noticeSubject, message: "Too many notices about this book or author right now: it is already being looked at." }),
    ),
  };
}
