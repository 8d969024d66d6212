import { join } from "node:path";
import { KOSYNC_PATH } from "../shared/kosync.ts";
import express, { type Express, type Request, type RequestHandler } from "express";
import type { Logger } from "pino";
import session from "express-session";
import { type AccountAsCaller, callerOf, createPassport } from "./accounts/passport.ts";
import type { PmeChain } from "./chain/pme-chain.ts";
import { reconcile } from "./rewards/reconciliation-service.ts";
import { DatabaseSessionStore } from "./accounts/session-store.ts";
import type { ChainSettings, Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import { compressAnswers } from "./http/compress-answers.ts";
import { apiNotFound, errorHandler } from "./http/error-handler.ts";
import { requestId } from "./http/request-id.ts";
import { requestLog } from "./http/request-log.ts";
import { logger } from "./system/logger.ts";
import { observeRequests } from "./system/metrics.ts";
import { RequestPressure } from "./system/request-pressure.ts";
import { AddressHashSweep, addressHasherFor } from "./downloads/address-hashes.ts";
import { DigestWorker, runDigestRound } from "./follows/digest-worker.ts";
import { unsubscribeTokensFor } from "./follows/unsubscribe-tokens.ts";
import { CoverQueue } from "./books/cover-queue.ts";
import { EpubQueue } from "./books/word-epubs.ts";
import { backgroundDrawingLimits } from "./books/pdf-first-page.ts";
import { pageHeads } from "./pages/page-heads.ts";
import { WordViews } from "./reading/word-views.ts";
import { type RouteGroup, routerOf } from "./http/define-route.ts";
import { ROUTE_GROUPS, ROUTE_TABLE, checkEveryGroupMounted } from "./http/route-table.ts";
import { inFlightLimit } from "./http/in-flight-limit.ts";
import { HASHES_AT_ONCE, HASHES_WAITING } from "./accounts/passwords.ts";
import { readinessCheck } from "./system/readiness-service.ts";
import { readPublicStatsFresh } from "./catalog/public-stats-service.ts";
import type { FileStore } from "./storage/file-store.ts";
import { type Mailer, createMailer, senderAddressOf } from "./mail/mailer.ts";
import { fixClientAddress } from "./security/client-address.ts";
import { createAbuseLimits } from "./security/rate-limits.ts";
import { refuseCrossSiteChanges } from "./security/same-origin.ts";
import { securityHeaders } from "./security/security-headers.ts";

export const SESSION_COOKIE_NAME = "plume.sid";
/** Production's cookie is Secure, so it takes the __Host- prefix: no subdomain can set or shadow it (ASVS 3.3.1). */
const sessionCookieNameFor = ({ isProduction }: Config) => (isProduction ? `__Host-${SESSION_COOKIE_NAME}` : SESSION_COOKIE_NAME);

const READ_METHODS = new Set(["GET", "HEAD"]);
const isAnonymousRead = (req: Request, cookieName: string) =>
  READ_METHODS.has(req.method) && !(req.headers.cookie ?? "").split(";").some((cookie) => cookie.trim().startsWith(`${cookieName}=`));

export interface AppDeps {
  config: Config;
  /** Where every absolute link starts and the only site a wallet proof may name (server/http/site-origin.ts). */
  origin: string;
  db: Db;
  store: FileStore;
  chain: ChainSettings;
  /** The hot wallet on that chain, shared with the payout worker (the reconciliation reads it). */
  payoutChain: PmeChain;
  sessionSecret: string;
  /** Wakes the payout worker: a download made payments owed, or an author connected a wallet. */
  onPaymentsOwed?: () => void;
  /** Serves the browser app: the built files (`npm start`, production) or Vite's hot reload (`npm run dev`). */
  client?: RequestHandler[];
  /** The client is Vite's hot reload, which injects inline scripts: the only one served without a Content-Security-Policy. */
  hotReload?: boolean;
  /** Sends the app's mail; by default through SMTP_URL, else into DATA_DIR/mail (docs/decisions/0033). */
  mailer?: Mailer;
  /** Where request lines go; the server's logger by default (a test reads its own). */
  logger?: Logger;
  /**
   * How many requests the HTTP server is answering (server/server.ts counts them), which background
   * work yields to (docs/decisions/0073); none by default (a test's app has no server of its own).
   */
  requestsInFlight?: () => number;
  /** Whether this process runs the digest rounds every minute (docs/product.md#follows); on by default, off for tests that run them by hand. */
  digests?: boolean;
}

export interface App {
  app: Express;
  /** PDFs' covers (their first page, or the typographic one) and page counts, made after their upload commits (docs/product.md#covers). */
  coverQueue: CoverQueue;
  epubQueue: EpubQueue;
  /** Word books' reading views, made once each in a cage (docs/decisions/0051). */
  wordViews: WordViews;
  /** One round of digest mails at `now` (docs/product.md#follows); answers how many went out. */
  digestRound(now: Date): Promise<number>;
  /** Stops background timers; the caller closes the database. */
  close(): void;
}

export function createApp({
  config,
  origin,
  db,
  store,
  chain,
  payoutChain,
  sessionSecret,
  onPaymentsOwed = () => {},
  client = [],
  hotReload = false,
  requestsInFlight = () => 0,
  ...deps
}: AppDeps): App {
  const app = express();
  const mailer = deps.mailer ?? createMailer({ settings: config.mail, outboxDir: join(config.dataDir, "mail") });
  app.disable("x-powered-by");
  if (config.trustProxy !== undefined) app.set("trust proxy", config.trustProxy);

  const sessionStore = new DatabaseSessionStore(db, config.sessionMaxAgeMs);
  const passport = createPassport(db, config.passwordHashCost, config.adminEmail);
  const sessionCookieName = sessionCookieNameFor(config);
  const sessionMiddleware = session({
    name: sessionCookieName,
    secret: sessionSecret,
    store: sessionStore,
    resave: false,
    saveUninitialized: false,
    cookie: {
      httpOnly: true,
      sameSite: "lax",
      secure: config.isProduction,
      maxAge: config.sessionMaxAgeMs,
      path: "/",
    },
  });

  app.use(fixClientAddress({ proxyTrusted: config.trustProxy !== undefined }));
  app.use(requestId);
  app.use(securityHeaders({ hotReload, isProduction: config.isProduction, walletConnectRelay: config.walletConnect?.relayUrl }));
  const { adminEmail } = config;
  /** A changed account as the next request's session will see it (its admin flag included). */
  const asCaller: AccountAsCaller = (account) => callerOf(account, adminEmail);
  const mounted = new Set<object>();
  const mount = <Deps>(group: RouteGroup<Deps>, groupDeps: Deps) => {
    mounted.add(group);
    app.use(group.base || "/", routerOf(group, groupDeps));
  };
  const routes = ROUTE_GROUPS;
  // Before the request log and its metrics: a probe every few seconds would bury the requests of people.
  mount(routes.operations, { db, payoutChain, metricsToken: config.metricsToken, readiness: readinessCheck({ db, store, payoutChain }) });
  app.use(requestLog(deps.logger ?? logger), observeRequests);
  app.use(refuseCrossSiteChanges);
  // API answers are made per request; the built app's files come precompressed (docs/decisions/0011).
  app.use("/api", compressAnswers());
  mount(routes.covers, { store });
  // Feeds, sitemaps and robots.txt are public reads outside /api, without a session; the feeds are compressed whole, the sitemaps as they are written.
  app.use(["/feed.xml", "/authors/:id/feed.xml"], compressAnswers());
  mount(routes.feeds, { db, origin, productName: config.productName });

  // Only the calls that can need a signed-in user read JSON and load a session.
  const limits = createAbuseLimits(db, config.rateLimits);
  // A read without the session cookie has no session to load and cannot start one: it skips them,
  // which every anonymous catalog read would otherwise make and throw away (docs/performance.md).
  const loadSession = express.Router().use(express.json({ limit: "64kb" }), sessionMiddleware, passport.initialize(), passport.session());
  app.use(["/api", "/rate", "/rating"], (req, res, next) => (isAnonymousRead(req, sessionCookieName) ? next() : loadSession(req, res, next)));

  // Every route below is declared once in its feature, with who may call it (server/http/define-route.ts).
  const { countedPerIpPerBookPerDay, rewards } = config;
  const hashAddress = addressHasherFor(sessionSecret);
  const addressHashSweep = new AddressHashSweep(db);
  const mailing = { mailer, origin, productName: config.productName };
  const decisionMailing = { ...mailing, contactEmail: config.contactEmail ?? `${origin}/contact` };
  // Signing in and registering each end in a password hash: no more of them are served at once than
  // the hashing queue takes, and the next are refused before they cost a lookup (docs/decisions/0054).
  const signInSlots = inFlightLimit(HASHES_AT_ONCE + HASHES_WAITING, "Too many sign-ins are being checked right now. Try again in a few seconds.");
  mount(routes.auth, { db, passport, callerOf: asCaller, sessionCookieName, limits, signInSlots, passwordHashCost: config.passwordHashCost, mailing });
  mount(routes.emailVerification, { db, limits, ...mailing });
  mount(routes.accountLanguage, { db });
  mount(routes.settings, { db, store, callerOf: asCaller, limits, passwordHashCost: config.passwordHashCost, sessionMaxAgeMs: config.sessionMaxAgeMs, sessionCookieName, mailing: decisionMailing });
  mount(routes.passwordReset, { db, limits, passwordHashCost: config.passwordHashCost, ...mailing });
  mount(routes.adminResetLink, { db, origin });
  mount(routes.loginRedirect, {});
  mount(routes.catalog, { db, publicStats: readPublicStatsFresh(db) });
  const coverPressure = new RequestPressure(config.coverQueue.yieldTo, requestsInFlight);
  // Word books' EPUBs, made after their upload and again when their cover changes (docs/decisions/0096).
  const epubQueue = new EpubQueue({ db, store, limits: config.wordViews.limits }, coverPressure);
  const coverQueue = new CoverQueue({ db, store, drawingLimits: backgroundDrawingLimits(config.coverQueue.niceness) }, coverPressure, (bookId) => epubQueue.add(bookId));
  // PDFs an interrupted process left without their cover: taken up in the background, one at a time.
  coverQueue.resume().catch((error: unknown) => logger.error({ err: error }, "covers left by the last run were not taken up"));
  epubQueue.resume().catch((error: unknown) => logger.error({ err: error }, "EPUBs left by the last run were not taken up"));
  const wordViews = new WordViews({ db, store, settings: config.wordViews });
  mount(routes.books, { db, store, docxLimits: config.docxLimits, storageLimits: config.storageLimits, limits, coverQueue, epubQueue, copyChecks: config.copyChecks, mailing: decisionMailing });
  mount(routes.downloads, { db, store, countedPerIpPerBookPerDay, hashAddress, rewards, onPaymentsOwed, limits, mailer, origin, productName: config.productName });
  mount(routes.reading, { db, store, countedPerIpPerBookPerDay, hashAddress, rewards, onPaymentsOwed, limits, wordViews });
  mount(routes.ratings, { db, limits });
  // Follows and the digest of what followed authors publish (docs/product.md#follows).
  const unsubscribeTokens = unsubscribeTokensFor(sessionSecret);
  mount(routes.follows, { db, limits });
  mount(routes.unsubscribe, { db, limits, unsubscribeTokens });
  const digestDeps = { db, mailer, origin, productName: config.productName, unsubscribeTokens };
  const digestWorker = deps.digests === false ? undefined : new DigestWorker(digestDeps);
  mount(routes.reviews, { db, limits, mailing: decisionMailing });
  mount(routes.series, { db });
  mount(routes.shelves, { db, limits });
  const refusedAddresses = [payoutChain.hotWallet.address, chain.tokenAddress];
  mount(routes.wallet, { db, callerOf: asCaller, origin, chainId: chain.chainId, refusedAddresses, onPaymentsOwed });
  mount(routes.payments, { db });
  mount(routes.pages, { db });
  mount(routes.config, { productName: config.productName, contactEmail: config.contactEmail, legalContact: config.legalContact, mailSender: senderAddressOf(config.mail.from), chain, walletConnect: config.walletConnect, rewards, countedPerIpPerBookPerDay });
  mount(routes.openApi, { routes: ROUTE_TABLE });
  mount(routes.admin, {
    db,
    rewards,
    onPaymentsOwed,
    storageQuotaBytes: config.storageLimits.quotaPerAccountBytes,
    payouts: {
      hotWallet: payoutChain.hotWallet.address,
      policy: config.payoutPolicy,
      reconcile: () => reconcile(db, payoutChain, { blockRange: config.reconciliationBlockRange }),
    },
  });
  mount(routes.moderation, { db, limits, mailing: decisionMailing });
  mount(routes.eReaderKeys, { db });
  // E-reader apps: no session, the feeds are open and a file needs an e-reader key (docs/product.md#opds).
  // Feeds are made whole and compress well; a book's file goes out in parts, as it is.
  app.use("/opds", compressAnswers());
  mount(routes.opds, { db, store, adminEmail, origin, productName: config.productName, countedPerIpPerBookPerDay, hashAddress, rewards, onPaymentsOwed, limits });
  // KOReader's progress sync: JSON under its own media type, signed in by e-reader key (docs/product.md#progress-sync).
  app.use(KOSYNC_PATH, express.json({ limit: "16kb", type: ["application/json", "application/vnd.koreader.v1+json"] }));
  mount(routes.kosync, { db, adminEmail, limits });
  mount(routes.followingFeeds, { db, adminEmail, limits, origin, productName: config.productName });
  checkEveryGroupMounted(mounted);
  app.use("/opds", apiNotFound);
  // The rating calls live outside /api: what they do not match is still an API miss, never the app's page.
  app.use(["/api", "/rate", "/rating"], apiNotFound);

  // The book and author pages get their own head and status before the app's page is sent.
  if (client.length > 0) app.use(pageHeads({ db, origin }), ...client);
  // What the browser app does not answer (a POST to a page's path, say) is a JSON 404 like the API's.
  app.use(apiNotFound);
  app.use(errorHandler);

  return {
    app,
    coverQueue,
    epubQueue,
    wordViews,
    digestRound: (now) => runDigestRound(digestDeps, now),
    close: () => {
      sessionStore.close();
      addressHashSweep.close();
      digestWorker?.close();
      // A shutdown waits for the cover in hand first (server/server.ts); a test's app does not.
      void coverQueue.stop();
      void epubQueue.stop();
      coverPressure.close();
      wordViews.stop();
      mailer.close();
    },
  };
}
