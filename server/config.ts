import { isIP } from "node:net";
import { parseUnits } from "ethers";
import { z } from "zod";
import type { CageLimits } from "./system/caged-job.ts";
import { PGLITE_SHARED_BUFFERS } from "./db/pglite-shared-buffers.ts";
import type { YieldSettings } from "./system/request-pressure.ts";

/** Blocks per eth_getLogs call: within what public Polygon endpoints answer (docs/decisions/0024). */
export const DEFAULT_RECONCILIATION_BLOCK_RANGE = 5000;

/** How many requests each abuse limit lets through per window (docs/decisions/0014). */
export const RATE_LIMIT_DEFAULTS = {
  RATE_LIMIT_SIGNIN_PER_ACCOUNT_ADDRESS: 10,
  RATE_LIMIT_SIGNIN_PER_ACCOUNT: 100,
  RATE_LIMIT_SIGNIN_PER_IP: 100,
  RATE_LIMIT_SIGNIN_SUCCESS_PER_ACCOUNT: 20,
  RATE_LIMIT_SIGNIN_SUCCESS_PER_IP: 60,
  RATE_LIMIT_REGISTER_PER_IP: 100,
  RATE_LIMIT_REGISTER_ALL_ADDRESSES: 300,
  RATE_LIMIT_UPLOADS_PER_ACCOUNT: 20,
  RATE_LIMIT_DOWNLOADS_PER_ACCOUNT: 60,
  RATE_LIMIT_READ_MB_PER_ACCOUNT: 500,
  RATE_LIMIT_RATINGS_PER_ACCOUNT: 60,
  RATE_LIMIT_FOLLOWS_PER_ACCOUNT: 120,
  RATE_LIMIT_SHELVINGS_PER_ACCOUNT: 300,
  RATE_LIMIT_UNSUBSCRIBES_PER_IP: 30,
  RATE_LIMIT_E_READER_KEY_FAILURES_PER_IP: 20,
  RATE_LIMIT_E_READER_SENDS_PER_ACCOUNT: 10,
  RATE_LIMIT_EDITIONS_PER_ACCOUNT: 10,
  RATE_LIMIT_REVIEWS_PER_ACCOUNT: 20,
  RATE_LIMIT_HELPFUL_VOTES_PER_ACCOUNT: 200,
  RATE_LIMIT_REVIEW_REPLIES_PER_ACCOUNT: 50,
  RATE_LIMIT_PASSWORD_RESET_PER_IP: 5,
  RATE_LIMIT_PASSWORD_RESET_PER_ACCOUNT: 3,
  RATE_LIMIT_VERIFY_EMAIL_PER_ACCOUNT: 3,
  RATE_LIMIT_PASSWORD_CONFIRM_PER_ACCOUNT: 10,
  RATE_LIMIT_NOTICES_PER_IP: 10,
  RATE_LIMIT_NOTICES_PER_EMAIL: 20,
  RATE_LIMIT_NOTICES_PER_SUBJECT: 30,
} as const;

type RateLimitSetting = keyof typeof RATE_LIMIT_DEFAULTS;

const rateLimitSettings = Object.fromEntries(
  Object.entries(RATE_LIMIT_DEFAULTS).map(([name, fallback]) => [name, z.coerce.number().int().min(1).max(1_000_000_000).default(fallback)]),
) as Record<RateLimitSetting, z.ZodDefault<z.ZodCoercedNumber>>;

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const LOG_FORMATS = ["json", "pretty"] as const;

/** Plain decimals only: a fee or a balance read as 1e3, or rounded through a float, would not be what was meant. */
const GWEI_PATTERN = /^\d{1,9}(\.\d{1,9})?$/;
const gwei = z.string().regex(GWEI_PATTERN, "must be a number of gwei such as 30 or 1.5");
const tokenAmount = z.string().regex(/^\d{1,15}(\.\d{1,18})?$/, "must be an amount such as 5 or 0.25");

/** Every setting of the server, read once from the environment and validated. */
const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(5000),
    HOST: z.string().min(1).default("0.0.0.0"),
    // The address people reach Plume at, which every absolute link starts with (docs/decisions/0053).
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://plume.example" })
      .refine(isOrigin, "must be an origin without a path, such as https://plume.example")
      .optional(),
    DATA_DIR: z.string().min(1).default("./data"),
    // docs/decisions/0042: a stored file younger than this is never swept, so another process's upload in flight is safe.
    ORPHAN_GRACE_MINUTES: z.coerce.number().int().min(0).max(7 * 24 * 60).default(60),
    // docs/decisions/0042: uploaded files on disk under DATA_DIR/uploads, or in an S3-compatible bucket.
    STORAGE: z.enum(["disk", "s3"]).default("disk"),
    // docs/decisions/0078: behind nginx, a counted download's bytes sent by nginx from this internal location, mapped to DATA_DIR/uploads/.
    DOWNLOADS_ACCEL_REDIRECT: z
      .string()
      .regex(/^\/\w[\w.~-]*(?:\/\w[\w.~-]*)*\/$/, "must be an internal location of nginx's, starting and ending with /, such as /_plume-uploads/")
      .optional(),
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://s3.eu-central-1.amazonaws.com" }).optional(),
    S3_REGION: z.string().regex(/^[a-z0-9-]{2,40}$/, "must be a region name such as eu-central-1 (us-east-1 for most other providers)").optional(),
    S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens").optional(),
    // Neither key is ever repeated in a message: a secret must not reach a log through an error.
    S3_ACCESS_KEY_ID: z.string().min(1).max(128).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1, "must not be empty").max(256, "must be at most 256 characters").optional(),
    S3_FORCE_PATH_STYLE: z.enum(["true", "false"], "must be true or false").default("false"),
    // docs/decisions/0055: what one account may keep (its live books' files), and the room the data folder keeps free.
    STORAGE_QUOTA_PER_ACCOUNT_MB: z.coerce.number().int().min(1).max(100_000_000).default(1024),
    STORAGE_FREE_SPACE_MIN_MB: z.coerce.number().int().min(0).max(1_000_000_000).default(1024),
    // Unset: no ceiling on all accounts together (a bucket has no free space to ask).
    STORAGE_TOTAL_MAX_GB: z.coerce.number().int().min(1).max(1_000_000).optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    SESSION_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    ADMIN_EMAIL: z.email().optional(),
    // Shown on the contact page as a mailto link (docs/product.md#info-pages); unset, the page says there is none yet.
    CONTACT_EMAIL: z.email().max(254).optional(),
    // The designated contact for notices (DMCA agent, DSA point of contact): a name and postal address shown on the terms and contact pages (docs/product.md#moderation).
    LEGAL_CONTACT: z.string().trim().min(1).max(500).optional(),
    // docs/decisions/0033: without an SMTP server each message is written to DATA_DIR/mail as an .eml file.
    SMTP_URL: z
      .url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example:465" })
      .optional(),
    MAIL_FROM: z.string().min(3).max(200).regex(/@/, "must hold an address, such as Plume <no-reply@plume.example>").default("Plume <no-reply@localhost>"),
    PRODUCT_NAME: z.string().min(1).max(50).default("Plume"),
    COUNTED_PER_IP_PER_BOOK_PER_DAY: z.coerce.number().int().min(1).max(1000).default(3),
    PROMO_CUTOFF: z.iso.datetime({ offset: true }).default("2026-04-01T00:00:00Z"),
    TOKENS_PER_MILESTONE: z.coerce.number().int().min(1).max(1_000_000).default(1),
    PAYOUT_HOLD_HOURS: z.coerce.number().min(0).max(24 * 30).optional(),
    RPC_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
    PUBLIC_RPC_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
    CHAIN_ID: z.coerce.number().int().min(1).optional(),
    PME_TOKEN_ADDRESS: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address").optional(),
    // docs/decisions/0039: the contract that pays a batch of payments in one transaction.
    BATCH_PAYER_ADDRESS: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address").optional(),
    // The regex's message never repeats the value: a key must not reach a log through an error.
    PAYOUT_PRIVATE_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex key").optional(),
    CONFIRMATIONS: z.coerce.number().int().min(0).max(1000).optional(),
    // docs/decisions/0037: finality and fees on Polygon PoS.
    PAYOUT_FINALITY_LAG_MAX_SECONDS: z.coerce.number().int().min(1).max(7 * 24 * 60 * 60).default(600),
    PAYOUT_PRIORITY_FEE_MIN_GWEI: gwei.optional(),
    PAYOUT_MAX_FEE_GWEI: gwei.default("1000"),
    // docs/decisions/0038: below these the worker pauses instead of sending transactions that fail.
    HOT_WALLET_MIN_POL: tokenAmount.optional(),
    HOT_WALLET_MIN_PME: tokenAmount.optional(),
    PME_DEPLOY_BLOCK: z.coerce.number().int().min(0).optional(),
    RECONCILIATION_BLOCK_RANGE: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_RECONCILIATION_BLOCK_RANGE),
    // docs/decisions/0023 and 0050: twice the largest book; Apache POI's inflate-ratio floor (1 %);
    // the text the reading view parses, whose conversion the view's own limits must hold.
    DOCX_UNPACKED_MAX_MB: z.coerce.number().int().min(1).max(100_000).default(100),
    DOCX_INFLATE_RATIO_MAX: z.coerce.number().int().min(2).max(10_000).default(100),
    DOCX_DOCUMENT_MAX_MB: z.coerce.number().int().min(1).max(1_000).default(16),
    LOCAL_CHAIN_PORT: z.coerce.number().int().min(1).max(65535).default(8545),
    // docs/decisions/0109: WalletConnect, a phone wallet app from a desktop browser, only when a project id is set.
    WALLETCONNECT_PROJECT_ID: z.string().regex(/^[0-9a-f]{32}$/i, "must be the 32 hexadecimal digits of a WalletConnect (Reown) project id").optional(),
    WALLETCONNECT_RELAY_URL: z.url({ protocol: /^wss?$/, error: "must be a wss:// URL" }).default("wss://relay.walletconnect.org"),
    EXPLORER_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
    // Express's "trust proxy": unset trusts no proxy, so X-Forwarded-For cannot spoof the client
    // address. `true` is refused: it takes the leftmost X-Forwarded-For entry, which the client writes.
    TRUST_PROXY: z
      .string()
      .refine(isTrustProxySetting, "must be a hop count (1 for one proxy) or the proxies' addresses (loopback, 10.0.0.5, 10.0.0.0/8); true would trust an address the client wrote")
      .optional(),
    // docs/decisions/0027: throwaway accounts of test runs may be hashed cheaply; never outside NODE_ENV=test.
    PASSWORD_HASH_COST: z.enum(["standard", "test"]).default("standard"),
    // docs/decisions/0040: JSON lines for a log collector; pretty for a person at a terminal.
    LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
    LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
    // Without it /metrics does not exist. The message never repeats the value, as for the payout key.
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").max(200, "must be at most 200 characters").optional(),
    // docs/decisions/0041: under the 30 s a container runtime waits after SIGTERM before it kills.
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(25),
    // docs/decisions/0051: the largest accepted DOCX (a 16 MB document of short formatted runs) converts
    // with about 30 s of CPU within a 1536 MB heap; its cage is killed past these.
    WORD_VIEW_HEAP_MB: z.coerce.number().int().min(16).max(16_384).default(1536),
    WORD_VIEW_CPU_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
    // Below the server and its database, which are all a production host runs (docs/decisions/0051).
    WORD_VIEW_NICENESS: z.coerce.number().int().min(0).max(19).default(10),
    WORD_VIEW_WAIT_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    // docs/decisions/0091: an upload's bytes and text are compared with other accounts' books; "false" only
    // where copies do not matter (a private instance, the test suites that play many authors with one fixture).
    COPY_CHECKS: z.enum(["true", "false"], "must be true or false").default("true"),
    // The embedded database's buffer pool (docs/decisions/0045): PostgreSQL's own notation.
    PGLITE_SHARED_BUFFERS: z.string().regex(/^[1-9]\d{0,5}(kB|MB|GB)$/, "must be a size like 16MB").default(PGLITE_SHARED_BUFFERS),
    // docs/decisions/0073: the cover queue is background work; it runs below the server and waits while it is busy.
    COVER_NICENESS: z.coerce
      .number("must be a whole number from 0 to 19")
      .int("must be a whole number from 0 to 19")
      .min(0, "must be 0 (the server's own priority) to 19")
      .max(19, "must be 0 (the server's own priority) to 19")
      .default(10),
    COVER_PAUSE_REQUESTS_IN_FLIGHT: z.coerce
      .number("must be a whole number of requests")
      .int("must be a whole number of requests")
      .min(0, "must be 0 or more requests")
      .max(10_000, "must be at most 10000 requests")
      .default(2),
    COVER_PAUSE_EVENT_LOOP_DELAY_MS: z.coerce
      .number("must be a whole number of milliseconds")
      .int("must be a whole number of milliseconds")
      .min(10, "must be at least 10 ms: the event loop's delay is sampled every 10 ms")
      .max(10_000, "must be at most 10000 ms")
      .default(50),
    COVER_PAUSE_MAX_SECONDS: z.coerce
      .number("must be a whole number of seconds")
      .int("must be a whole number of seconds")
      .min(0, "must be 0 (no pause) or more seconds")
      .max(3600, "must be at most 3600 seconds: a cover must not wait longer")
      .default(10),
    ...rateLimitSettings,
  })
  .superRefine((env, ctx) => {
    if (env.PASSWORD_HASH_COST === "test" && env.NODE_ENV !== "test") {
      ctx.addIssue({ code: "custom", path: ["PASSWORD_HASH_COST"], message: "test is for NODE_ENV=test only" });
    }
    if (env.STORAGE === "s3" && env.DOWNLOADS_ACCEL_REDIRECT !== undefined) {
      ctx.addIssue({ code: "custom", path: ["DOWNLOADS_ACCEL_REDIRECT"], message: "is for STORAGE=disk: nginx sends the files of the data folder" });
    }
    if (env.STORAGE === "s3") {
      for (const name of ["S3_REGION", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when STORAGE=s3" });
      }
    }
    const chainSettings = ["RPC_URL", "PME_TOKEN_ADDRESS", "BATCH_PAYER_ADDRESS", "PAYOUT_PRIVATE_KEY"] as const;
    // A priority fee the ceiling forbids could never be sent: refused here rather than waited on forever.
    // zod refines even after a field failed: the comparison is made only once both fees can be read.
    const feesReadable = [env.PAYOUT_PRIORITY_FEE_MIN_GWEI, env.PAYOUT_MAX_FEE_GWEI].every((value) => value === undefined || GWEI_PATTERN.test(value));
    if (feesReadable && priorityFeeFloorOf(env) > parseUnits(env.PAYOUT_MAX_FEE_GWEI, "gwei")) {
      const name = env.PAYOUT_PRIORITY_FEE_MIN_GWEI === undefined ? "PAYOUT_MAX_FEE_GWEI" : "PAYOUT_PRIORITY_FEE_MIN_GWEI";
      ctx.addIssue({ code: "custom", path: [name], message: "the priority fee floor (PAYOUT_PRIORITY_FEE_MIN_GWEI) is above the fee ceiling (PAYOUT_MAX_FEE_GWEI)" });
    }
    if (env.NODE_ENV === "production") {
      for (const name of ["PUBLIC_URL", "SESSION_SECRET", "DATABASE_URL", ...chainSettings] as const) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required in production" });
      }
    } else if (env.RPC_URL) {
      // An external chain needs its token and hot wallet; without RPC_URL a local chain is started.
      for (const name of chainSettings) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when RPC_URL is set" });
      }
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env["NODE_ENV"];
  isProduction: boolean;
  port: number;
  host: string;
  /** PUBLIC_URL's origin (https://plume.example); undefined outside production: links then start with the server's own address (server/http/site-origin.ts). */
  publicOrigin: string | undefined;
  dataDir: string;
  /** How old a stored file with no book must be before the start-up sweep removes it (docs/decisions/0042). */
  orphanGraceMs: number;
  /** Where uploaded files are kept: disk under DATA_DIR/uploads, or a bucket (docs/decisions/0042). */
  storage: StorageSettings;
  /** How much uploads may keep: per account, in all, and the free space they must leave (docs/decisions/0055). */
  storageLimits: StorageLimits;
  databaseUrl: string | undefined;
  /** PGlite's shared_buffers, when the database is the embedded one. */
  pgliteSharedBuffers: string;
  sessionSecret: string | undefined;
  sessionMaxAgeMs: number;
  adminEmail: string | undefined;
  /** The address the contact page gives visitors; undefined when none is published. */
  contactEmail: string | undefined;
  /** The designated contact for notices: a name and postal address; undefined when none is named. */
  legalContact: string | undefined;
  mail: MailSettings;
  productName: string;
  countedPerIpPerBookPerDay: number;
  rewards: RewardSettings;
  chain: ChainConfig;
  /** WalletConnect for the authors' wallets; undefined when no project id is set, and then nothing of it shows (docs/decisions/0109). */
  walletConnect: WalletConnectSettings | undefined;
  payoutPolicy: PayoutPolicy;
  trustProxy: number | string[] | undefined;
  rateLimits: RateLimitSettings;
  /** The most blocks one eth_getLogs call asks for: public RPC endpoints refuse wide ranges. */
  reconciliationBlockRange: number;
  docxLimits: DocxLimits;
  /** Whether uploads are checked for copies of other accounts' books (docs/decisions/0091). */
  copyChecks: boolean;
  wordViews: WordViewSettings;
  coverQueue: CoverQueueSettings;
  /** How costly new password hashes are: "standard" always, but in test runs (docs/decisions/0027). */
  passwordHashCost: PasswordHashCost;
  log: LogSettings;
  /** The bearer token /metrics asks for; undefined: there is no /metrics (docs/decisions/0040). */
  metricsToken: string | undefined;
  /** How long a SIGTERM waits for requests in flight and the payout round before cutting them (docs/decisions/0041). */
  shutdownTimeoutMs: number;
}

export interface LogSettings {
  level: Env["LOG_LEVEL"];
  /** Unset: pretty in development at a terminal, JSON otherwise (server/system/logger.ts). */
  format: Env["LOG_FORMAT"];
}

export interface StorageLimits {
  /** The most one account's live books' files may take together. */
  quotaPerAccountBytes: number;
  /** The free space an upload must leave where uploads arrive (the temporary folder under DATA_DIR/uploads). */
  freeSpaceMinBytes: number;
  /** The most all accounts' live books' files may take together; undefined: no ceiling. */
  totalMaxBytes: number | undefined;
}

export type StorageSettings =
  | {
      driver: "disk";
      /** nginx's internal location of DATA_DIR/uploads/, from which it sends counted downloads (docs/decisions/0078); unset: Plume sends them. */
      accelRedirect?: string;
    }
  | { driver: "s3"; s3: S3Settings };

export interface S3Settings {
  /** Unset: AWS S3's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Buckets addressed as endpoint/bucket rather than bucket.endpoint (MinIO and most self-hosted servers). */
  forcePathStyle: boolean;
}

/** Where mail goes: an SMTP server, or (without SMTP_URL) .eml files under the data folder (docs/decisions/0033). */
export interface MailSettings {
  smtpUrl: string | undefined;
  from: string;
}

export type PasswordHashCost = Env["PASSWORD_HASH_COST"];

/** How far a DOCX, or an EPUB, may unpack before it is taken for a zip bomb (docs/decisions/0023, 0050, 0095). */
export interface DocxLimits {
  unpackedMaxBytes: number;
  /** The most a large part may inflate: its unpacked size over its packed size. */
  inflateRatioMax: number;
  /** The most the parts the reading view parses (the main part, its styles, numbering, notes, comments) may unpack to; an EPUB's bound on any one chapter. */
  documentMaxBytes: number;
}

/** A Word book's reading view, made once in a cage (docs/decisions/0051). */
export interface WordViewSettings {
  limits: CageLimits;
  /** How long a reader's call waits for a conversion before it answers "being prepared". */
  waitMs: number;
}

/** The cover queue, background work that yields to requests (docs/decisions/0073). */
export interface CoverQueueSettings {
  /** Its drawing process's niceness (0, the server's own priority, to 19). */
  niceness: number;
  /** When the next cover waits for the server to be quiet, and for how long at most. */
  yieldTo: YieldSettings;
}

/** Buffers outside the heap (the unpacked zip, its parts) may take this much beside it before the cage is killed. */
const WORD_VIEW_MEMORY_BESIDE_HEAP_MB = 512;
/** The clock's cap, for a machine so busy that the CPU cap comes late (the cage runs below the server's priority). */
const WORD_VIEW_CLOCK_PER_CPU = 5;

export interface RateLimitSettings {
  /** Failed sign-ins, per account from one address. */
  signInPerAccountAddress: number;
  /** Failed sign-ins, per account from all addresses together: the higher ceiling. */
  signInPerAccount: number;
  /** Failed sign-ins, per address across accounts. */
  signInPerIp: number;
  signInSuccessPerAccount: number;
  signInSuccessPerIp: number;
  /** Registrations, attempts included, per address in an hour: room for a classroom behind one address (docs/decisions/0048). */
  registerPerIp: number;
  /** Accounts created from all addresses together in 10 minutes: the ceiling on a sign-up burst from many addresses. */
  registerAllAddresses: number;
  uploadsPerAccount: number;
  downloadsPerAccount: number;
  /** MB of PDFs' parts served to the browser reader per account in an hour (docs/decisions/0049). */
  readMbPerAccount: number;
  ratingsPerAccount: number;
  /** Follows and unfollows, per account in an hour (docs/product.md#follows). */
  followsPerAccount: number;
  shelvingsPerAccount: number;
  /** Digest unsubscribes by link, per address in 15 minutes, forged ones counted (docs/product.md#follows). */
  unsubscribesPerIp: number;
  /** Failed e-reader key sign-ins (OPDS downloads), per address. */
  eReaderKeyFailuresPerIp: number;
  /** Books mailed to the account's e-reader, per account in a day: each is a mail of up to 50 MB from Plume's sender. */
  eReaderSendsPerAccount: number;
  /** New editions of books uploaded, per account in a day; only those published count (docs/product.md#editions). */
  editionsPerAccount: number;
  /** Reviews written or changed, per account in a day (docs/product.md#reviews). */
  reviewsPerAccount: number;
  /** "Helpful" votes given or taken back, per account in a day. */
  helpfulVotesPerAccount: number;
  /** An author's replies to reviews written or changed, per account in a day. */
  reviewRepliesPerAccount: number;
  /** "Forgot password?" requests per address, and per e-mail asked for (docs/product.md#password-reset). */
  passwordResetPerIp: number;
  passwordResetPerAccount: number;
  noticesPerIp: number;
  noticesPerEmail: number;
  noticesPerSubject: number;
  /** "Send the link again" for an e-mail verification, per account: each one is a mail to someone's inbox. */
  verifyEmailPerAccount: number;
  /** Settings changes confirmed by the current password (e-mail, password, deletion), per account in 15 minutes: each is a guess at it. */
  passwordConfirmPerAccount: number;
}

export interface RewardSettings {
  promoCutoff: Date;
  /** Whole PME per milestone (and per first-book bonus). */
  tokensPerMilestone: number;
  /** How long an owed payment waits before it is sent ("payments take one or two days"). */
  payoutHoldMs: number;
}

/** How the payout worker prices, settles and pauses its transactions (docs/product.md#payouts). */
export interface PayoutPolicy {
  /** Above this finality lag (seconds between the latest and the finalized block) no new transaction is sent. */
  finalityLagMaxSeconds: number;
  /** The lowest priority fee offered: Polygon's validators refuse less than 25 gwei (PIP-35). */
  priorityFeeFloorWei: bigint;
  /** The most a transaction may pay per gas; above what the chain needs, payouts wait. */
  maxFeeWei: bigint;
  /** Below these hot-wallet balances (gas, and PME) payouts pause. */
  minPolWei: bigint;
  minPmeWei: bigint;
}

export interface WalletConnectSettings {
  projectId: string;
  /** The relay the browser's WalletConnect client talks to (wss://); the only origin it adds to the page's connect-src. */
  relayUrl: string;
}

/** A chain to pay on: an external one, or (embedded default) a local Hardhat node started with the server. */
export type ChainConfig =
  | { kind: "external"; settings: ChainSettings }
  | { kind: "local"; port: number; explorerUrl: string | null };

export interface ChainSettings {
  rpcUrl: string;
  /** The RPC a browser wallet is told to add (wallet_addEthereumChain): never a private endpoint. */
  publicRpcUrl: string;
  chainId: number;
  /** The chain's own name (Polygon); null for one without (the local chain, another chain id), which the app names in the reader's language. */
  chainName: string | null;
  tokenAddress: string;
  /** The batch payer deployed for that token (docs/decisions/0039). */
  batchPayerAddress: string;
  payoutPrivateKey: string;
  confirmations: number;
  explorerUrl: string | null;
  /** The token's deployment block, where the reconciliation starts reading; found on the chain when unset. */
  deployBlock?: number;
}

const MB = 1024 * 1024;

const POLYGON_MAINNET = { chainId: 137, name: "Polygon", rpcUrl: "https://polygon-rpc.com", explorerUrl: "https://polygonscan.com" };

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment; a bad value throws one line naming the variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (FOO= in a .env file) means "not set", not "set to nothing".
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    throw new ConfigError(`Invalid setting ${name}: ${issue.message}`);
  }
  const env = parsed.data;
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === "production",
    port: env.PORT,
    host: env.HOST,
    publicOrigin: env.PUBLIC_URL === undefined ? undefined : new URL(env.PUBLIC_URL).origin,
    dataDir: env.DATA_DIR,
    orphanGraceMs: env.ORPHAN_GRACE_MINUTES * 60 * 1000,
    storage:
      env.STORAGE === "s3"
        ? {
            driver: "s3",
            s3: {
              endpoint: env.S3_ENDPOINT,
              region: env.S3_REGION!,
              bucket: env.S3_BUCKET!,
              accessKeyId: env.S3_ACCESS_KEY_ID!,
              secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
              forcePathStyle: env.S3_FORCE_PATH_STYLE === "true",
            },
          }
        : { driver: "disk", accelRedirect: env.DOWNLOADS_ACCEL_REDIRECT },
    storageLimits: {
      quotaPerAccountBytes: env.STORAGE_QUOTA_PER_ACCOUNT_MB * MB,
      freeSpaceMinBytes: env.STORAGE_FREE_SPACE_MIN_MB * MB,
      totalMaxBytes: env.STORAGE_TOTAL_MAX_GB === undefined ? undefined : env.STORAGE_TOTAL_MAX_GB * 1024 * MB,
    },
    databaseUrl: env.DATABASE_URL,
    pgliteSharedBuffers: env.PGLITE_SHARED_BUFFERS,
    sessionSecret: env.SESSION_SECRET,
    sessionMaxAgeMs: env.SESSION_MAX_AGE_DAYS * 24 * 60 * 60 * 1000,
    adminEmail: env.ADMIN_EMAIL?.toLowerCase(),
    contactEmail: env.CONTACT_EMAIL,
    legalContact: env.LEGAL_CONTACT,
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    productName: env.PRODUCT_NAME,
    countedPerIpPerBookPerDay: env.COUNTED_PER_IP_PER_BOOK_PER_DAY,
    rewards: {
      promoCutoff: new Date(env.PROMO_CUTOFF),
      tokensPerMilestone: env.TOKENS_PER_MILESTONE,
      payoutHoldMs: (env.PAYOUT_HOLD_HOURS ?? (env.NODE_ENV === "production" ? 24 : 0)) * 60 * 60 * 1000,
    },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    passwordHashCost: env.PASSWORD_HASH_COST,
    log: { level: env.LOG_LEVEL, format: env.LOG_FORMAT },
    metricsToken: env.METRICS_TOKEN,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    reconciliationBlockRange: env.RECONCILIATION_BLOCK_RANGE,
    docxLimits: {
      unpackedMaxBytes: env.DOCX_UNPACKED_MAX_MB * 1024 * 1024,
      inflateRatioMax: env.DOCX_INFLATE_RATIO_MAX,
      documentMaxBytes: env.DOCX_DOCUMENT_MAX_MB * 1024 * 1024,
    },
    copyChecks: env.COPY_CHECKS === "true",
    wordViews: {
      limits: {
        cpuSeconds: env.WORD_VIEW_CPU_SECONDS,
        timeoutMs: env.WORD_VIEW_CPU_SECONDS * WORD_VIEW_CLOCK_PER_CPU * 1000,
        heapMegabytes: env.WORD_VIEW_HEAP_MB,
        memoryMegabytes: env.WORD_VIEW_HEAP_MB + WORD_VIEW_MEMORY_BESIDE_HEAP_MB,
        niceness: env.WORD_VIEW_NICENESS,
      },
      waitMs: env.WORD_VIEW_WAIT_SECONDS * 1000,
    },
    coverQueue: {
      niceness: env.COVER_NICENESS,
      yieldTo: {
        requestsInFlightMax: env.COVER_PAUSE_REQUESTS_IN_FLIGHT,
        eventLoopDelayMaxMs: env.COVER_PAUSE_EVENT_LOOP_DELAY_MS,
        maxPauseMs: env.COVER_PAUSE_MAX_SECONDS * 1000,
      },
    },
    rateLimits: {
      signInPerAccountAddress: env.RATE_LIMIT_SIGNIN_PER_ACCOUNT_ADDRESS,
      signInPerAccount: env.RATE_LIMIT_SIGNIN_PER_ACCOUNT,
      signInPerIp: env.RATE_LIMIT_SIGNIN_PER_IP,
      signInSuccessPerAccount: env.RATE_LIMIT_SIGNIN_SUCCESS_PER_ACCOUNT,
      signInSuccessPerIp: env.RATE_LIMIT_SIGNIN_SUCCESS_PER_IP,
      registerPerIp: env.RATE_LIMIT_REGISTER_PER_IP,
      registerAllAddresses: env.RATE_LIMIT_REGISTER_ALL_ADDRESSES,
      uploadsPerAccount: env.RATE_LIMIT_UPLOADS_PER_ACCOUNT,
      downloadsPerAccount: env.RATE_LIMIT_DOWNLOADS_PER_ACCOUNT,
      readMbPerAccount: env.RATE_LIMIT_READ_MB_PER_ACCOUNT,
      ratingsPerAccount: env.RATE_LIMIT_RATINGS_PER_ACCOUNT,
      followsPerAccount: env.RATE_LIMIT_FOLLOWS_PER_ACCOUNT,
      shelvingsPerAccount: env.RATE_LIMIT_SHELVINGS_PER_ACCOUNT,
      unsubscribesPerIp: env.RATE_LIMIT_UNSUBSCRIBES_PER_IP,
      eReaderKeyFailuresPerIp: env.RATE_LIMIT_E_READER_KEY_FAILURES_PER_IP,
      eReaderSendsPerAccount: env.RATE_LIMIT_E_READER_SENDS_PER_ACCOUNT,
      editionsPerAccount: env.RATE_LIMIT_EDITIONS_PER_ACCOUNT,
      reviewsPerAccount: env.RATE_LIMIT_REVIEWS_PER_ACCOUNT,
      helpfulVotesPerAccount: env.RATE_LIMIT_HELPFUL_VOTES_PER_ACCOUNT,
      reviewRepliesPerAccount: env.RATE_LIMIT_REVIEW_REPLIES_PER_ACCOUNT,
      verifyEmailPerAccount: env.RATE_LIMIT_VERIFY_EMAIL_PER_ACCOUNT,
      passwordConfirmPerAccount: env.RATE_LIMIT_PASSWORD_CONFIRM_PER_ACCOUNT,
      passwordResetPerIp: env.RATE_LIMIT_PASSWORD_RESET_PER_IP,
      passwordResetPerAccount: env.RATE_LIMIT_PASSWORD_RESET_PER_ACCOUNT,
      noticesPerIp: env.RATE_LIMIT_NOTICES_PER_IP,
      noticesPerEmail: env.RATE_LIMIT_NOTICES_PER_EMAIL,
      noticesPerSubject: env.RATE_LIMIT_NOTICES_PER_SUBJECT,
    },
    chain: chainConfigOf(env),
    walletConnect: env.WALLETCONNECT_PROJECT_ID === undefined ? undefined : { projectId: env.WALLETCONNECT_PROJECT_ID, relayUrl: env.WALLETCONNECT_RELAY_URL },
    payoutPolicy: payoutPolicyOf(env),
  };
}

const isPolygonMainnet = (env: Pick<Env, "RPC_URL" | "CHAIN_ID">) => Boolean(env.RPC_URL) && (env.CHAIN_ID ?? POLYGON_MAINNET.chainId) === POLYGON_MAINNET.chainId;

/**
 * The payout policy of these settings. Polygon's defaults: a 30 gwei tip (5 above PIP-35's floor) and
 * 1 POL of gas (some 200 transfers at 100 gwei); elsewhere (a local or test chain) the node's own tip.
 * The PME minimum defaults to one payment: less cannot pay anyone.
 */
function payoutPolicyOf(env: Env): PayoutPolicy {
  const polygon = isPolygonMainnet(env);
  return {
    finalityLagMaxSeconds: env.PAYOUT_FINALITY_LAG_MAX_SECONDS,
    priorityFeeFloorWei: priorityFeeFloorOf(env),
    maxFeeWei: parseUnits(env.PAYOUT_MAX_FEE_GWEI, "gwei"),
    minPolWei: parseUnits(env.HOT_WALLET_MIN_POL ?? (polygon ? "1" : "0.01"), 18),
    minPmeWei: parseUnits(env.HOT_WALLET_MIN_PME ?? String(env.TOKENS_PER_MILESTONE), 18),
  };
}

function priorityFeeFloorOf(env: Pick<Env, "RPC_URL" | "CHAIN_ID" | "PAYOUT_PRIORITY_FEE_MIN_GWEI">): bigint {
  return parseUnits(env.PAYOUT_PRIORITY_FEE_MIN_GWEI ?? (isPolygonMainnet(env) ? "30" : "0"), "gwei");
}

/** The policy a worker follows when none is given (tests): the defaults of a chain that is not Polygon's. */
export const DEFAULT_PAYOUT_POLICY: PayoutPolicy = payoutPolicyOf(envSchema.parse({}));

/** zod runs a refinement even after the URL check failed, so an unparsable value is left to that check. */
function isOrigin(value: string): boolean {
  if (!URL.canParse(value)) return true;
  const { pathname, search, hash } = new URL(value);
  return pathname === "/" && !search && !hash;
}

const isHopCount = (value: string) => /^[1-9]\d{0,2}$/.test(value);

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** One entry of `TRUST_PROXY`'s list: a name Express knows, an address, or an address/prefix. */
function isTrustedProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function isTrustProxySetting(value: string): boolean {
  return isHopCount(value) || value.split(",").every((entry) => isTrustedProxyEntry(entry.trim()));
}

function parseTrustProxy(value: string | undefined): number | string[] | undefined {
  if (value === undefined) return undefined;
  return isHopCount(value) ? Number(value) : value.split(",").map((entry) => entry.trim());
}

function chainConfigOf(env: Env): ChainConfig {
  if (!env.RPC_URL || !env.PME_TOKEN_ADDRESS || !env.BATCH_PAYER_ADDRESS || !env.PAYOUT_PRIVATE_KEY) {
    return { kind: "local", port: env.LOCAL_CHAIN_PORT, explorerUrl: env.EXPLORER_URL ?? null };
  }
  const chainId = env.CHAIN_ID ?? POLYGON_MAINNET.chainId;
  const isPolygon = chainId === POLYGON_MAINNET.chainId;
  return {
    kind: "external",
    settings: {
      rpcUrl: env.RPC_URL,
      publicRpcUrl: env.PUBLIC_RPC_URL ?? (isPolygon ? POLYGON_MAINNET.rpcUrl : env.RPC_URL),
      chainId,
      chainName: isPolygon ? POLYGON_MAINNET.name : null,
      tokenAddress: env.PME_TOKEN_ADDRESS,
      batchPayerAddress: env.BATCH_PAYER_ADDRESS,
      payoutPrivateKey: env.PAYOUT_PRIVATE_KEY,
      confirmations: env.CONFIRMATIONS ?? (isPolygon ? 30 : 1),
      explorerUrl: env.EXPLORER_URL ?? (isPolygon ? POLYGON_MAINNET.explorerUrl : null),
      deployBlock: env.PME_DEPLOY_BLOCK,
    },
  };
}
