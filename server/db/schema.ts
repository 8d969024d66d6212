import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  json,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { moderationActions, moderationBases, moderationGroundKeys, moderationStates } from "../../shared/moderation.ts";
import { noticeCategories, noticeSources } from "../../shared/notices.ts";
import { noticeOutcomes } from "../../shared/transparency.ts";
import { appealKinds, appealStatuses } from "../../shared/appeals.ts";
import { CONTENT_RATINGS } from "../../shared/books.ts";
import { DIGEST_FREQUENCIES, SHELVES } from "../../shared/returning-readers.ts";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    username: varchar("username", { length: 50 }).notNull(),
    email: varchar("email", { length: 255 }),
    password: text("password").notNull(),
    firstName: varchar("first_name", { length: 100 }),
    lastName: varchar("last_name", { length: 100 }),
    profileImageUrl: text("profile_image_url"),
    walletAddress: varchar("wallet_address", { length: 42 }),
    totalDownloads: integer("total_downloads").notNull().default(0),
    totalEarnings: numeric("total_earnings", { precision: 10, scale: 2 }).notNull().default("0"),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    // When `email` was proven by a link sent to it; null until then, and again when it changes (docs/product.md#accounts).
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    // The language the account's mail is written in: the interface language it last chose.
    language: varchar("language", { length: 2 }).notNull().default("en"),
    notifyPaymentCompleted: boolean("notify_payment_completed").notNull().default(true),
    // Where "Send to my e-reader" mails a book (a Kindle's or another e-reader's address), docs/product.md#send-to-e-reader.
    eReaderEmail: varchar("e_reader_email", { length: 255 }),
    // The reader chose to see explicit books (docs/product.md#content-ratings): off until they do.
    showExplicit: boolean("show_explicit").notNull().default(false),
    // Set while the admin has suspended the account (docs/product.md#moderation): it cannot sign in and its books are hidden.
    suspendedAt: timestamp("suspended_at", { withTimezone: true }),
    // How often new books of followed authors and new editions reach the reader by mail (docs/product.md#follows).
    digestFrequency: varchar("digest_frequency", { length: 8, enum: DIGEST_FREQUENCIES }).notNull().default("weekly"),
    // Everything published up to this moment has been mailed (or was before the reader followed); null until the first digest.
    digestSentThrough: timestamp("digest_sent_through", { withTimezone: true }),
    // The reader made their shelves public at /readers/{username} (docs/product.md#shelves): off until they do.
    shelvesPublic: boolean("shelves_public").notNull().default(false),
    ...timestamps,
    // A deleted account stays as a row without personal data, so the payments and downloads that
    // point at it stay explained (docs/product.md#settings).
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    check("users_language_known", sql`${t.language} in ('en', 'es', 'fr')`),
    check("users_digest_frequency_known", sql`${t.digestFrequency} in ('off', 'instant', 'weekly')`),
    // Case-insensitive uniqueness: "Ana" and "ana" are one account, as are the two spellings of a proven e-mail.
    uniqueIndex("users_username_lower_key").on(sql`lower(${t.username})`),
    // An address is unique only once proven: before that it is a claim, and several accounts may hold
    // one (someone may type another person's address); proving it drops the others (docs/decisions/0054).
    uniqueIndex("users_proven_email_lower_key").on(sql`lower(${t.email})`).where(sql`${t.emailVerifiedAt} is not null`),
    index("users_email_lower_idx").on(sql`lower(${t.email})`),
    check("users_total_downloads_nonnegative", sql`${t.totalDownloads} >= 0`),
    check("users_total_earnings_nonnegative", sql`${t.totalEarnings} >= 0`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    sid: varchar("sid", { length: 255 }).primaryKey(),
    sess: json("sess").notNull(),
    expire: timestamp("expire", { withTimezone: true, precision: 6 }).notNull(),
  },
  (t) => [index("sessions_expire_idx").on(t.expire)],
);

// books.search_vector, its triggers and search indexes are maintained by migrations/0002_catalog_search.sql.
export const books = pgTable(
  "books",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    title: varchar("title", { length: 255 }).notNull(),
    description: text("description"),
    genre: varchar("genre", { length: 100 }),
    language: varchar("language", { length: 10 }).notNull().default("en"),
    // The author's rating (docs/product.md#content-ratings); books from before ratings existed are general.
    contentRating: varchar("content_rating", { length: 10, enum: CONTENT_RATINGS }).notNull().default("general"),
    // Books are soft-deleted and payments point at their author: an account with books is never removed.
    authorId: uuid("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    fileName: varchar("file_name", { length: 255 }).notNull(),
    filePath: text("file_path").notNull(),
    fileSize: bigint("file_size", { mode: "number" }).notNull(),
    // The stored file's SHA-256, hex: an upload of the same bytes as another account's book is refused
    // (docs/product.md#moderation). Null for books uploaded before it was kept until `npm run fingerprints:fill`.
    fileSha256: varchar("file_sha256", { length: 64 }),
    mimeType: varchar("mime_type", { length: 100 }).notNull(),
    // A PDF's pages, read after its upload (docs/product.md#covers); a Word book's, its reading view's once made (docs/decisions/0051).
    pageCount: integer("page_count"),
    // The EPUB Plume made from a Word book once made (docs/product.md#epub), its size; null for a PDF or EPUB book and until made.
    epubSize: bigint("epub_size", { mode: "number" }),
    // The title, language and cover the made EPUB carries: when the book's are no longer these, the EPUB is made again (docs/decisions/0096).
    epubTitle: varchar("epub_title", { length: 255 }),
    epubLanguage: varchar("epub_language", { length: 10 }),
    epubCoverUrl: text("epub_cover_url"),
    // The converter version that could not make the EPUB: not tried again but by a newer one (docs/decisions/0096).
    epubFailedVersion: integer("epub_failed_version"),
    coverImageUrl: text("cover_image_url"),
    // "author" when the author gave the cover; Plume's own: "first-page" when it is a PDF's first page,
    // "generated" when it is Plume's typographic cover, drawn again when the title changes (docs/product.md#covers).
    coverSource: varchar("cover_source", { length: 10 }),
    downloadCount: integer("download_count").notNull().default(0),
    rating: numeric("rating", { precision: 3, scale: 2 }).notNull().default("0"),
    reviewCount: integer("review_count").notNull().default(0),
    isPublished: boolean("is_published").notNull().default(true),
    // What moderation restricts, over the author's own choice to publish (docs/product.md#moderation): null while nothing does.
    moderationState: varchar("moderation_state", { length: 16, enum: moderationStates }),
    // The decision that set moderation_state: its statement of reasons, and what an account's reinstatement undoes.
    moderationDecisionId: integer("moderation_decision_id").references((): AnyPgColumn => moderationDecisions.id, { onDelete: "restrict" }),
    firstBook: boolean("first_book").notNull().default(false),
    firstBookBonusPaid: boolean("first_book_bonus_paid").notNull().default(false),
    paidMilestones: integer("paid_milestones").notNull().default(0),
    firstDownloadDate: timestamp("first_download_date", { withTimezone: true }),
    // The series the author put the book in and its place there (docs/product.md#series-and-tags); a volume may be 1.5.
    seriesId: integer("series_id").references((): AnyPgColumn => series.id, { onDelete: "set null" }),
    seriesVolume: numeric("series_volume", { precision: 6, scale: 2 }),
    // The number of the edition the book's file is (docs/product.md#editions): 1 until the author uploads a new one.
    edition: integer("edition").notNull().default(1),
    ...timestamps,
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    check("books_language_known", sql`${t.language} in ('en', 'es', 'fr')`),
    check("books_edition_positive", sql`${t.edition} >= 1`),
    check("books_series_volume_positive", sql`${t.seriesVolume} > 0`),
    index("books_series_idx").on(t.seriesId, t.seriesVolume).where(sql`${t.seriesId} is not null`),
    // One live book per volume of a series (docs/product.md#series-and-tags): a second is refused with 409.
    uniqueIndex("books_series_volume_key").on(t.seriesId, t.seriesVolume).where(sql`${t.seriesId} is not null and ${t.deletedAt} is null`),
    check("books_download_count_nonnegative", sql`${t.downloadCount} >= 0`),
    check("books_review_count_nonnegative", sql`${t.reviewCount} >= 0`),
    check("books_rating_range", sql`${t.rating} between 0 and 5`),
    check("books_paid_milestones_nonnegative", sql`${t.paidMilestones} >= 0`),
    check("books_file_size_positive", sql`${t.fileSize} > 0`),
    check("books_epub_size_positive", sql`${t.epubSize} > 0`),
    check("books_page_count_positive", sql`${t.pageCount} > 0`),
    check("books_content_rating_known", sql`${t.contentRating} in ('general', 'teen', 'mature', 'explicit')`),
    check("books_cover_source_known", sql`${t.coverSource} in ('author', 'first-page', 'generated')`),
    check("books_moderation_state_known", sql`${t.moderationState} in ('hidden', 'removed-terms', 'removed-legal')`),
    check("books_moderation_state_decided", sql`(${t.moderationState} is null) = (${t.moderationDecisionId} is null)`),
    index("books_author_idx").on(t.authorId),
    index("books_file_sha256_idx").on(t.fileSha256).where(sql`${t.deletedAt} is null`),
    // One first book per author, deleted books included: the first-book bonus is owed once per author
    // (docs/product.md#books), so neither the upload nor the admin's fix can mark a second one.
    uniqueIndex("books_one_first_book_per_author").on(t.authorId).where(sql`${t.firstBook}`),
    // The catalog only ever lists published, live books that moderation does not restrict; partial indexes keep its sorts cheap. Each
    // follows the keys of its order in server/catalog/catalog-repository.ts exactly: a query's DESC
    // puts nulls first, and an index on DESC NULLS LAST (Drizzle's default) could not serve it.
    // Each also INCLUDEs content_rating (migration content_ratings, which Drizzle cannot say): a visitor's
    // deep page leaves explicit books out and is still read from the index alone (docs/decisions/0092).
    index("books_catalog_newest_idx")
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.isPublished} and ${t.deletedAt} is null and ${t.moderationState} is null`),
    index("books_catalog_downloads_idx")
      .on(t.downloadCount.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.isPublished} and ${t.deletedAt} is null and ${t.moderationState} is null`),
    index("books_catalog_rating_idx")
      .on(t.rating.desc().nullsFirst(), t.reviewCount.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.isPublished} and ${t.deletedAt} is null and ${t.moderationState} is null`),
    // Titles in the order of the reader's language (docs/decisions/0046): English and French share
    // one; Spanish has its own, ñ being a letter after n (its migration adds INCLUDE (title), which
    // Drizzle cannot say, for deep pages by offset).
    index("books_catalog_title_idx")
      .on(sql`(${t.title} collate plume_title)`, t.id)
      .where(sql`${t.isPublished} and ${t.deletedAt} is null and ${t.moderationState} is null`),
    index("books_catalog_spanish_title_idx")
      .on(sql`(plume_spanish_title(${t.title}) collate plume_title)`, t.id)
      .where(sql`${t.isPublished} and ${t.deletedAt} is null and ${t.moderationState} is null`),
    index("books_catalog_genre_idx")
      .on(t.genre, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.isPublished} and ${t.deletedAt} is null and ${t.moderationState} is null`),
    // "Most downloaded in a genre" (the home page's shelves, the catalog's filter and sort).
    index("books_catalog_genre_downloads_idx")
      .on(t.genre, t.downloadCount.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.isPublished} and ${t.deletedAt} is null and ${t.moderationState} is null`),
  ],
);

/** Why a download did not count, in the order the counting rule checks (server/downloads/downloads-service.ts). */
export const notCountedReasons = ["unpublished", "moderation-review", "own-book", "repeat-reader", "no-address", "address-cap"] as const;
export type NotCountedReason = (typeof notCountedReasons)[number];

export const downloads = pgTable(
  "downloads",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "restrict" }),
    // The log outlives an account: the count it fed stays explained.
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    ipAddress: varchar("ip_address", { length: 45 }),
    // HMAC-SHA256 of the counting address (server/downloads/address-hashes.ts), hex: what an account's
    // deletion leaves of the address, so the per-address cap and the admin's bursts still see it
    // (docs/decisions/0049). Cleared once the download is older than ADDRESS_HASH_KEPT_MS (7 days).
    addressHash: varchar("address_hash", { length: 64 }),
    counted: boolean("counted").notNull().default(false),
    // How the reader took the book: a download, opening it in the reader, an e-reader app (OPDS), or a
    // mail to their e-reader ("send"). All count by the same rule (docs/product.md#counting-downloads).
    channel: varchar("channel", { length: 10 }).notNull().default("download"),
    downloadedAt: timestamp("downloaded_at", { withTimezone: true }).notNull().defaultNow(),
    // The edition of the book's file taken (docs/product.md#editions): the current one, or an older one asked for;
    // null for downloads logged before editions, whose edition is the one current at their time.
    edition: integer("edition"),
    // Why a download was not counted (docs/product.md#counting-downloads); null when counted, and for
    // downloads logged before reasons were recorded whose reason could not be told afterwards.
    notCountedReason: varchar("not_counted_reason", { length: 20, enum: notCountedReasons }),
  },
  (t) => [
    // A reader counts once per book, whatever the concurrency: the database refuses a second counted row.
    uniqueIndex("downloads_one_counted_per_reader_key")
      .on(t.bookId, t.userId)
      .where(sql`${t.counted}`),
    check("downloads_channel_known", sql`${t.channel} in ('download', 'read', 'opds', 'send')`),
    check("downloads_not_counted_reason_known", sql`${t.notCountedReason} in ('unpublished', 'moderation-review', 'own-book', 'repeat-reader', 'no-address', 'address-cap')`),
    check("downloads_counted_has_no_reason", sql`not (${t.counted} and ${t.notCountedReason} is not null)`),
    index("downloads_book_ip_time_idx").on(t.bookId, t.ipAddress, t.downloadedAt),
    // The counting rule's per-address count, and the sweep that forgets hashes once their days are over.
    index("downloads_book_address_hash_time_idx")
      .on(t.bookId, t.addressHash, t.downloadedAt)
      .where(sql`${t.addressHash} is not null`),
    index("downloads_address_hash_time_idx")
      .on(t.downloadedAt)
      .where(sql`${t.addressHash} is not null`),
    index("downloads_book_counted_time_idx").on(t.bookId, t.downloadedAt).where(sql`${t.counted}`),
    index("downloads_user_time_idx").on(t.userId, t.downloadedAt),
    // The admin's suspicious-activity diagnostics read the last days of the whole log.
    index("downloads_time_idx").on(t.downloadedAt),
  ],
);

/**
 * A payment is owed (pending), paid (completed), failed, or cancelled by a book's removal (docs/product.md#rewards):
 * a cancelled payment is never sent, and names the decision that cancelled it.
 */
export const paymentStatuses = ["pending", "completed", "failed", "cancelled"] as const;
/** Where a pending payment is on its way out (docs/product.md#rewards): kept apart from the status people see. */
export const payoutStages = ["queued", "signed", "broadcast", "confirming"] as const;
export const paymentKinds = ["milestone", "first-book-bonus"] as const;

/**
 * A payout transaction of the hot wallet: one nonce paying one or many payments (a batch, through the
 * batch payer contract), signed and stored before it is sent (docs/product.md#payouts). Replacements
 * keep the nonce and the payments; every hash it was sent under is kept, oldest first.
 */
export const payoutTransactions = pgTable(
  "payout_transactions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    nonce: integer("nonce").notNull(),
    signedTransaction: text("signed_transaction").notNull(),
    transactionHashes: jsonb("transaction_hashes").$type<string[]>().notNull(),
    /** When the current version was last sent: a long wait means it is stuck and gets replaced. */
    broadcastAt: timestamp("broadcast_at", { withTimezone: true }),
    /** The chain it was signed for: a local chain that restarted is another chain. */
    chainId: integer("chain_id").notNull(),
    genesisHash: varchar("genesis_hash", { length: 66 }).notNull(),
    tokenAddress: varchar("token_address", { length: 42 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payout_transactions_nonce_idx").on(t.chainId, t.genesisHash, t.tokenAddress, t.nonce)],
);

export const payments = pgTable(
  "payments",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    // Payments are never lost: neither a book nor an author can be removed from under one.
    bookId: integer("book_id").references(() => books.id, { onDelete: "restrict" }),
    authorId: uuid("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    authorWallet: varchar("author_wallet", { length: 42 }),
    tokensSent: varchar("tokens_sent", { length: 78 }),
    transactionHash: varchar("transaction_hash", { length: 66 }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    idempotencyKey: varchar("idempotency_key", { length: 120 }).notNull(),
    metadata: jsonb("metadata"),
    amount: numeric("amount", { precision: 10, scale: 2 }).notNull(),
    currency: varchar("currency", { length: 10 }).notNull().default("PME"),
    walletAddress: varchar("wallet_address", { length: 42 }),
    status: varchar("status", { length: 20, enum: paymentStatuses }).notNull().default("pending"),
    downloadThreshold: integer("download_threshold"),
    triggeredAt: timestamp("triggered_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    kind: varchar("kind", { length: 20, enum: paymentKinds }).notNull().default("milestone"),
    milestone: integer("milestone"),
    // Payout progress (docs/product.md#payouts): everything needed to finish a payment after a crash.
    payoutStage: varchar("payout_stage", { length: 20, enum: payoutStages }).notNull().default("queued"),
    /** The transaction that pays it, with others of its batch (docs/decisions/0039); null while queued. */
    payoutTransactionId: integer("payout_transaction_id").references(() => payoutTransactions.id, { onDelete: "restrict" }),
    /** Its transaction's nonce, kept here too for the messages that name it. */
    nonce: integer("nonce"),
    /** The position of its PME Transfer in the mined transaction's logs: with the hash, its one transfer. */
    logIndex: integer("log_index"),
    attempts: integer("attempts").notNull().default(0),
    /** When the payment's first transaction was sent: the "sent" step of the author's timeline. */
    sentAt: timestamp("sent_at", { withTimezone: true }),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** The chain a transaction was signed for: a local chain that restarted is another chain. */
    chainId: integer("chain_id"),
    genesisHash: varchar("genesis_hash", { length: 66 }),
    tokenAddress: varchar("token_address", { length: 42 }),
    /** The removal that cancelled it (its statement of reasons, docs/decisions/0090); set exactly when cancelled. */
    cancelledByDecisionId: integer("cancelled_by_decision_id").references((): AnyPgColumn => moderationDecisions.id, { onDelete: "restrict" }),
  },
  (t) => [
    unique("payments_idempotency_key_key").on(t.idempotencyKey),
    check("payments_status_known", sql`${t.status} in ('pending', 'completed', 'failed', 'cancelled')`),
    check("payments_cancelled_by_a_decision", sql`(${t.status} = 'cancelled') = (${t.cancelledByDecisionId} is not null)`),
    check("payments_stage_known", sql`${t.payoutStage} in ('queued', 'signed', 'broadcast', 'confirming')`),
    check("payments_kind_known", sql`${t.kind} in ('milestone', 'first-book-bonus')`),
    check("payments_amount_positive", sql`${t.amount} > 0`),
    index("payments_author_triggered_idx").on(t.authorId, t.triggeredAt.desc()),
    index("payments_due_idx").on(t.nextAttemptAt, t.id).where(sql`${t.status} = 'pending'`),
    index("payments_book_idx").on(t.bookId),
    index("payments_payout_transaction_idx").on(t.payoutTransactionId),
  ],
);

export const reviews = pgTable(
  "reviews",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    // A review has no meaning without its book or its reader (books are only soft-deleted, so this stays rare).
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rating: integer("rating").notNull(),
    // The review's text (docs/product.md#reviews); null for a rating given without words.
    comment: text("comment"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // When the reader last changed the rating or the text; null while never changed.
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    // The author's one reply, and when it was written.
    authorReply: text("author_reply"),
    authorRepliedAt: timestamp("author_replied_at", { withTimezone: true }),
    // Readers who found it helpful, kept equal to its rows in review_helpful_votes in the same transaction.
    helpfulCount: integer("helpful_count").notNull().default(0),
    // The `remove-review` decision that removes it now (docs/decisions/0111): hidden everywhere, not
    // counted in the average; null while nothing does. The statement itself (ground, facts, who, when)
    // is that decision's row, never copied here.
    moderationDecisionId: integer("moderation_decision_id").references((): AnyPgColumn => moderationDecisions.id, { onDelete: "restrict" }),
  },
  (t) => [
    unique("reviews_one_per_reader_key").on(t.bookId, t.userId),
    check("reviews_rating_range", sql`${t.rating} between 1 and 5`),
    check("reviews_helpful_count_nonnegative", sql`${t.helpfulCount} >= 0`),
    check("reviews_reply_dated", sql`(${t.authorReply} is null) = (${t.authorRepliedAt} is null)`),
    index("reviews_user_idx").on(t.userId),
    // The book page's list, newest first, of the reviews with words that moderation did not remove.
    index("reviews_book_written_idx").on(t.bookId, t.createdAt).where(sql`${t.comment} is not null and ${t.moderationDecisionId} is null`),
  ],
);

/**
 * Every moderation decision, as the statement of reasons the affected author receives
 * (docs/product.md#moderation): what was decided about which book or account, on what ground, from
 * what, with the facts, by whom and when. Rows are never changed nor removed: they are the log.
 */
export const moderationDecisions = pgTable(
  "moderation_decisions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    action: varchar("action", { length: 16, enum: moderationActions }).notNull(),
    // The book decided about, or the one the review decided about is of; null for a decision about the account as a whole.
    bookId: integer("book_id").references(() => books.id, { onDelete: "restrict" }),
    // The review decided about (docs/decisions/0111). The decision outlives it: a review its writer
    // deletes (once restored) or an account's deletion takes away leaves the statement in the log and
    // the transparency figures, naming the book still.
    reviewId: integer("review_id").references((): AnyPgColumn => reviews.id, { onDelete: "set null" }),
    // The account the decision restricts or frees: the book's author, or the review's writer.
    accountId: uuid("account_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    // The clause of the terms or the law a restriction rests on; null when one is lifted.
    ground: varchar("ground", { length: 32, enum: moderationGroundKeys }),
    basis: varchar("basis", { length: 16, enum: moderationBases }).notNull(),
    facts: text("facts").notNull(),
    // The admin who decided; null for Plume's automated checks.
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "restrict" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "moderation_decisions_action_known",
      sql`${t.action} in ('hide', 'remove', 'restore', 'suspend', 'reinstate', 'remove-review', 'restore-review')`,
    ),
    check("moderation_decisions_basis_known", sql`${t.basis} in ('notice', 'automated', 'own-initiative', 'appeal')`),
    // A restriction states its ground; lifting one has none to state.
    check("moderation_decisions_ground_when_restricting", sql`(${t.action} in ('hide', 'remove', 'suspend', 'remove-review')) = (${t.ground} is not null)`),
    check(
      "moderation_decisions_book_when_about_a_book",
      sql`(${t.action} in ('hide', 'remove', 'restore', 'remove-review', 'restore-review')) = (${t.bookId} is not null)`,
    ),
    // Only a review's decision names a review. It is written with one (the service locks the review
    // first); the column goes null only when that review is deleted, so the check cannot ask more.
    check("moderation_decisions_review_only_for_a_review", sql`${t.reviewId} is null or ${t.action} in ('remove-review', 'restore-review')`),
    index("moderation_decisions_account_idx").on(t.accountId, t.createdAt),
    index("moderation_decisions_book_idx").on(t.bookId),
    index("moderation_decisions_review_idx").on(t.reviewId),
  ],
);

/**
 * A notice anyone sent about a book or an author (docs/product.md#moderation, EU Digital Services Act
 * Art. 16), kept as sent: the reporter's name and address are what the acknowledgement and the
 * decision are mailed to, and are never shown to the author.
 */
export const notices = pgTable(
  "notices",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    category: varchar("category", { length: 16, enum: noticeCategories }).notNull(),
    // The book reported, or null when the notice is about the author as a whole.
    bookId: integer("book_id").references(() => books.id, { onDelete: "restrict" }),
    // The review reported (docs/product.md#reviews); its book_id is then null and account_id is its writer.
    reviewId: integer("review_id").references((): AnyPgColumn => reviews.id, { onDelete: "set null" }),
    // The account the notice is about: the book's author, or the author reported, or the review's writer.
    accountId: uuid("account_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    url: text("url").notNull(),
    explanation: text("explanation").notNull(),
    reporterName: varchar("reporter_name", { length: 200 }),
    reporterEmail: varchar("reporter_email", { length: 255 }),
    // The reporter's account when they were signed in; a visitor's notice has none.
    reporterAccountId: uuid("reporter_account_id").references(() => users.id, { onDelete: "set null" }),
    // The language the reporter used Plume in: their mails are written in it.
    language: varchar("language", { length: 2 }).notNull(),
    originalWork: text("original_work"),
    rightsHolder: varchar("rights_holder", { length: 200 }),
    sworn: boolean("sworn").notNull().default(false),
    status: varchar("status", { length: 16, enum: noticeOutcomes }).notNull().default("open"),
    // Who sent it: someone through the form, or Plume's own check of an upload (a near copy, docs/decisions/0091), which has no reporter.
    source: varchar("source", { length: 10, enum: noticeSources }).notNull().default("form"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // How the notice was settled: when, the facts told to its sender, and the decision it led to (none when dismissed on its own).
    closedAt: timestamp("closed_at", { withTimezone: true }),
    closingFacts: text("closing_facts"),
    decisionId: integer("decision_id").references(() => moderationDecisions.id, { onDelete: "restrict" }),
  },
  (t) => [
    check("notices_category_known", sql`${t.category} in ('copyright', 'illegal', 'private-data', 'hate-violence', 'minors', 'spam', 'harmful-file')`),
    check("notices_status_known", sql`${t.status} in ('open', 'actioned', 'dismissed', 'writer-deleted')`),
    check("notices_language_known", sql`${t.language} in ('en', 'es', 'fr')`),
    // Only a notice of sexual content involving minors may come without a name and an address to answer.
    check("notices_source_known", sql`${t.source} in ('form', 'automated')`),
    check("notices_reporter_known", sql`${t.category} = 'minors' or ${t.source} = 'automated' or (${t.reporterName} is not null and ${t.reporterEmail} is not null)`),
    // Plume's own notice names the original book it found but swears nothing: it is no rights holder.
    check(
      "notices_copyright_complete",
      sql`${t.category} <> 'copyright' or (${t.originalWork} is not null and ${t.rightsHolder} is not null and (${t.sworn} or ${t.source} = 'automated'))`,
    ),
    check("notices_closed_when_settled", sql`(${t.status} = 'open') = (${t.closedAt} is null)`),
    index("notices_open_idx").on(t.createdAt).where(sql`${t.status} = 'open'`),
    index("notices_book_idx").on(t.bookId),
    index("notices_account_idx").on(t.accountId),
  ],
);

/**
 * An author's appeal or DMCA counter-notice against a decision that restricts their book
 * (docs/product.md#appeals): one per decision, kept as sent, and the admin's answer beside it.
 */
export const appeals = pgTable(
  "appeals",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    decisionId: integer("decision_id")
      .notNull()
      .references(() => moderationDecisions.id, { onDelete: "restrict" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    kind: varchar("kind", { length: 16, enum: appealKinds }).notNull(),
    statement: text("statement").notNull(),
    // A counter-notice's identity, which the DMCA forwards to the notices' senders.
    legalName: varchar("legal_name", { length: 200 }),
    postalAddress: varchar("postal_address", { length: 500 }),
    phone: varchar("phone", { length: 30 }),
    status: varchar("status", { length: 10, enum: appealStatuses }).notNull().default("open"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "restrict" }),
    outcomeFacts: text("outcome_facts"),
    // The decision that lifted the restriction when the appeal was granted.
    outcomeDecisionId: integer("outcome_decision_id").references(() => moderationDecisions.id, { onDelete: "restrict" }),
  },
  (t) => [
    uniqueIndex("appeals_decision_unique").on(t.decisionId),
    check("appeals_kind_known", sql`${t.kind} in ('appeal', 'counter-notice')`),
    check("appeals_status_known", sql`${t.status} in ('open', 'granted', 'rejected')`),
    check("appeals_counter_notice_complete", sql`${t.kind} <> 'counter-notice' or (${t.legalName} is not null and ${t.postalAddress} is not null and ${t.phone} is not null)`),
    check("appeals_decided_when_closed", sql`(${t.status} = 'open') = (${t.decidedAt} is null)`),
    index("appeals_open_idx").on(t.createdAt).where(sql`${t.status} = 'open'`),
    index("appeals_account_idx").on(t.accountId),
  ],
);

/**
 * The text fingerprint of a book (docs/decisions/0091): its MinHash signature over word shingles
 * (server/books/text-fingerprints.ts), or none when it has too little text to tell (a scanned PDF) or
 * its text could not be read. One row per book once looked at, so `npm run fingerprints:fill` does not
 * look again.
 */
export const bookFingerprints = pgTable(
  "book_fingerprints",
  {
    bookId: integer("book_id")
      .primaryKey()
      .references(() => books.id, { onDelete: "cascade" }),
    // SIGNATURE_HASHES signed 32-bit minima; null when not fingerprinted.
    signature: integer("signature").array(),
    // The words of its normalised text; null when the text could not be read at all.
    wordCount: integer("word_count"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("book_fingerprints_word_count_nonnegative", sql`${t.wordCount} >= 0`)],
);

/**
 * The LSH bands of each fingerprint: a new upload's bands find the books sharing one with a single
 * indexed lookup (the primary key's order), never a scan of every signature.
 */
export const bookFingerprintBands = pgTable(
  "book_fingerprint_bands",
  {
    band: integer("band").notNull(),
    hash: integer("hash").notNull(),
    bookId: integer("book_id")
      .notNull()
      .references(() => bookFingerprints.bookId, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.band, t.hash, t.bookId] }), index("book_fingerprint_bands_book_idx").on(t.bookId)],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Book = typeof books.$inferSelect;
export type Payment = typeof payments.$inferSelect;
export type PayoutTransaction = typeof payoutTransactions.$inferSelect;

/**
 * One payout sender per hot wallet, whatever the number of server processes: a process sends only
 * while it holds the unexpired lease for its wallet (docs/product.md#payouts). Works the same on PGlite and PostgreSQL.
 */
export const payoutLeases = pgTable("payout_leases", {
  wallet: varchar("wallet", { length: 42 }).primaryKey(),
  holder: varchar("holder", { length: 100 }).notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export const payoutHealthStates = ["sending", "low-gas", "low-pme", "finality-lag", "fee-ceiling"] as const;
export const finalityModes = ["finalized-tag", "depth"] as const;

/**
 * What the payout worker last saw of its hot wallet and chain, one row per wallet: written by the
 * lease holder, read by every server process's admin view (docs/decisions/0038). Balances in wei.
 */
export const payoutHealth = pgTable(
  "payout_health",
  {
    wallet: varchar("wallet", { length: 42 }).primaryKey(),
    state: varchar("state", { length: 20, enum: payoutHealthStates }).notNull(),
    gasBalance: varchar("gas_balance", { length: 78 }).notNull(),
    tokenBalance: varchar("token_balance", { length: 78 }).notNull(),
    balancesCheckedAt: timestamp("balances_checked_at", { withTimezone: true }).notNull(),
    finalityMode: varchar("finality_mode", { length: 20, enum: finalityModes }).notNull(),
    finalityLagBlocks: integer("finality_lag_blocks").notNull(),
    finalityLagSeconds: integer("finality_lag_seconds").notNull(),
    /** The max fee per gas the chain needed when it was above the ceiling (fee-ceiling), in wei. */
    feeNeeded: varchar("fee_needed", { length: 78 }),
    /** Since when the state is what it is. */
    since: timestamp("since", { withTimezone: true }).notNull(),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    check("payout_health_state_known", sql`${t.state} in ('sending', 'low-gas', 'low-pme', 'finality-lag', 'fee-ceiling')`),
    check("payout_health_mode_known", sql`${t.finalityMode} in ('finalized-tag', 'depth')`),
  ],
);

/**
 * Abuse-limit counters (express-rate-limit's store), kept in the database so that every server
 * process counts the same hits: one row per limited key and window.
 */
export const rateLimitHits = pgTable("rate_limit_hits", {
  key: varchar("key", { length: 300 }).primaryKey(),
  hits: integer("hits").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
});

/**
 * One row whose numbers move in the writer's own transaction. `revision`: with every change to what a
 * catalog search matches or how it ranks, a book's text, author, genre, listing or date (trigger of
 * migrations/0008_catalog_revision.sql); a search ranking a server process keeps is valid while the
 * number it was ranked at has not moved (server/catalog/search-rankings.ts). `cardRevision`: with
 * each of those and with every other change to what a card shows but its download count (triggers of
 * migrations/0021_catalog_card_revision.sql); a catalog answer a process keeps is valid while it has
 * not moved (server/catalog/catalog-answers.ts, docs/decisions/0077).
 */
export const catalogRevision = pgTable(
  "catalog_revision",
  {
    single: boolean("single").primaryKey().default(true),
    revision: bigint("revision", { mode: "number" }).notNull().default(0),
    cardRevision: bigint("card_revision", { mode: "number" }).notNull().default(0),
  },
  (t) => [check("catalog_revision_single_row", sql`${t.single}`)],
);

/**
 * How far the reconciliation has read the hot wallet's PME transfers on one chain: the next block
 * to read. `chain` names the chain's identity, token and wallet (server/rewards/chain-scan-repository.ts), so a
 * restarted local chain starts a scan of its own.
 */
export const chainScanCursors = pgTable("chain_scan_cursors", {
  chain: varchar("chain", { length: 200 }).primaryKey(),
  nextBlock: bigint("next_block", { mode: "number" }).notNull(),
});

/** The hot wallet's PME transfers read from blocks deep enough not to be reorganised away. */
export const chainTransfers = pgTable(
  "chain_transfers",
  {
    chain: varchar("chain", { length: 200 }).notNull(),
    transactionHash: varchar("transaction_hash", { length: 66 }).notNull(),
    logIndex: integer("log_index").notNull(),
    toAddress: varchar("to_address", { length: 42 }).notNull(),
    // Wei, up to 2^256: numeric keeps every digit.
    amount: numeric("amount", { precision: 78, scale: 0 }).notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.chain, t.transactionHash, t.logIndex] })],
);

/** Where a reader left off in a book read in the browser (docs/product.md#reading). */
export const readingPositions = pgTable(
  "reading_positions",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    // A PDF's page, a Word book's section in the reading view, an EPUB's spine item (KOReader's DocFragment); all start at 1.
    page: integer("page").notNull(),
    // How far through the whole book, 0 to 1: where the browser and KOReader meet when their pages differ (docs/product.md#progress-sync).
    percentage: real("percentage"),
    // The place exactly, in the file it was read in: an EPUB CFI from the browser, KOReader's progress (an XPointer or a page).
    locator: text("locator"),
    // The file the position was taken in: "pdf", "epub" or "word" (the reading view); null before formats were told apart.
    format: varchar("format", { length: 8 }),
    // The edition of the book's file it was taken in (docs/product.md#editions): a place in an older one opens
    // the newer at the same percentage; null for places saved before editions existed (all of the first).
    edition: integer("edition"),
    // The e-reader that saved it through the KOReader sync calls; null for the browser.
    device: varchar("device", { length: 100 }),
    deviceId: varchar("device_id", { length: 100 }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.bookId] }),
    check("reading_positions_page_positive", sql`${t.page} >= 1`),
    check("reading_positions_percentage_range", sql`${t.percentage} between 0 and 1`),
    check("reading_positions_format_known", sql`${t.format} in ('pdf', 'epub', 'word')`),
  ],
);

/**
 * The KOReader document ids of every file Plume serves or served of a book (docs/product.md#progress-sync):
 * KOReader names a document by the partial MD5 of its bytes, so a position it syncs is matched to a book,
 * and to the edition it was read in, by it. A new edition adds its ids; older editions' stay.
 */
export const bookDocuments = pgTable(
  "book_documents",
  {
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    // "file" for the edition's own file, "epub" for the EPUB Plume made from a Word edition.
    file: varchar("file", { length: 8 }).notNull(),
    // The edition the file is of (book_editions.number).
    edition: integer("edition").notNull(),
    partialMd5: varchar("partial_md5", { length: 32 }).notNull(),
  },
  (t) => [
    // Every EPUB made of an edition keeps its id: a device holding one made before a title change still syncs.
    primaryKey({ columns: [t.bookId, t.file, t.edition, t.partialMd5] }),
    index("book_documents_partial_md5_idx").on(t.partialMd5),
    check("book_documents_file_known", sql`${t.file} in ('file', 'epub')`),
    check("book_documents_edition_positive", sql`${t.edition} >= 1`),
  ],
);

/**
 * Per-device keys for e-reader apps (OPDS over HTTP Basic, docs/product.md#opds): shown once, kept
 * only as a hash, revocable. A revoked key keeps its row so the reader's list can say when.
 */
export const eReaderKeys = pgTable(
  "e_reader_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 60 }).notNull(),
    keyHash: varchar("key_hash", { length: 64 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("e_reader_keys_hash_key").on(t.keyHash), index("e_reader_keys_user_idx").on(t.userId)],
);

/**
 * What KOReader's sync sends for a key typed as its password: the MD5 of what was typed. The key is
 * random, so each way of typing it (with or without hyphens, in either case) is kept as one digest.
 */
export const eReaderKeyDigests = pgTable(
  "e_reader_key_digests",
  {
    md5: varchar("md5", { length: 32 }).primaryKey(),
    keyId: uuid("key_id")
      .notNull()
      .references(() => eReaderKeys.id, { onDelete: "cascade" }),
  },
  (t) => [index("e_reader_key_digests_key_idx").on(t.keyId)],
);

/**
 * Single-use links sent by mail (docs/product.md#accounts): proving an e-mail address, resetting a
 * password. Only the token's SHA-256 is kept; a link is spent by setting `used_at`.
 */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: varchar("purpose", { length: 20 }).notNull(),
    tokenHash: varchar("token_hash", { length: 64 }).notNull(),
    // The address a verification link proves: a later change of address makes the link worthless.
    email: varchar("email", { length: 255 }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("account_tokens_hash_key").on(t.tokenHash),
    index("account_tokens_user_purpose_idx").on(t.userId, t.purpose, t.createdAt),
    check("account_tokens_purpose_known", sql`${t.purpose} in ('verify-email', 'reset-password')`),
  ],
);

/** "Helpful", once per reader and review (docs/product.md#reviews). */
export const reviewHelpfulVotes = pgTable(
  "review_helpful_votes",
  {
    reviewId: integer("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.userId] }), index("review_helpful_votes_user_idx").on(t.userId)],
);

/** A reader follows an author (docs/product.md#follows): never public; the author sees only how many. */
export const follows = pgTable(
  "follows",
  {
    followerId: uuid("follower_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    authorId: uuid("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.authorId] }),
    index("follows_author_idx").on(t.authorId),
    check("follows_not_oneself", sql`${t.followerId} <> ${t.authorId}`),
  ],
);

/** A book on one of a reader's shelves (docs/product.md#shelves): one shelf per reader and book. */
export const shelfEntries = pgTable(
  "shelf_entries",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    shelf: varchar("shelf", { length: 8, enum: SHELVES }).notNull(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.bookId] }),
    index("shelf_entries_user_shelf_idx").on(t.userId, t.shelf, t.updatedAt.desc()),
    check("shelf_entries_shelf_known", sql`${t.shelf} in ('want', 'reading', 'read')`),
  ],
);

/** An author's series of books (docs/product.md#series-and-tags); its books name it with their volume. */
export const series = pgTable(
  "series",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    authorId: uuid("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: varchar("title", { length: 255 }).notNull(),
    description: text("description"),
    ...timestamps,
  },
  (t) => [index("series_author_idx").on(t.authorId)],
);

/** A tag, kept once by its normalised form (case and accents folded, docs/product.md#series-and-tags). */
export const tags = pgTable(
  "tags",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    slug: varchar("slug", { length: 40 }).notNull(),
    // How it was first written, shown as the tag's name.
    name: varchar("name", { length: 40 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // The suggestions read tags by a prefix of their slug (server/series/tags-repository.ts): an index in byte order serves LIKE 'prefix%'.
  (t) => [uniqueIndex("tags_slug_key").on(t.slug), index("tags_slug_prefix_idx").using("btree", t.slug.op("varchar_pattern_ops"))],
);

export const bookTags = pgTable(
  "book_tags",
  {
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.bookId, t.tagId] }), index("book_tags_tag_idx").on(t.tagId, t.bookId)],
);

/**
 * Every edition of a book's file (docs/product.md#editions), the current one included: the book's
 * own file columns are its current edition's. A new edition keeps the book's page, counts and reviews.
 */
export const bookEditions = pgTable(
  "book_editions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "restrict" }),
    number: integer("number").notNull(),
    fileName: varchar("file_name", { length: 255 }).notNull(),
    filePath: text("file_path").notNull(),
    fileSize: bigint("file_size", { mode: "number" }).notNull(),
    fileSha256: varchar("file_sha256", { length: 64 }),
    mimeType: varchar("mime_type", { length: 100 }).notNull(),
    // What changed, in the author's words; null for the first edition.
    changelog: text("changelog"),
    // The book's page count when this edition was replaced (a PDF's pages, a Word book's reading-view pages):
    // where KOReader's place in an older PDF is found by percentage. Null while current (the book's is
    // the count), when it was not counted yet, and for editions replaced before it was kept.
    pageCount: integer("page_count"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("book_editions_book_number_key").on(t.bookId, t.number),
    // The digest's and the feed's "new editions" read the newest first.
    index("book_editions_created_idx").on(t.createdAt).where(sql`${t.number} > 1`),
    // An upload of an older edition's bytes is an exact copy too (server/books/copies.ts).
    index("book_editions_file_sha256_idx").on(t.fileSha256),
    check("book_editions_number_positive", sql`${t.number} >= 1`),
    check("book_editions_file_size_positive", sql`${t.fileSize} > 0`),
    check("book_editions_page_count_positive", sql`${t.pageCount} > 0`),
  ],
);
