import { type AppealForReview, type AppealSummary, type DecisionForAuthor, appealKinds, appealStatuses } from "../../shared/appeals.ts";
import { type NoticeGroup, type NoticeReceipt, type SettledNotice, noticeCategories, noticeSources, paymentHoldingCategories } from "../../shared/notices.ts";
import { type TransparencyReport, noticeOutcomes } from "../../shared/transparency.ts";
import { type LoggedModerationDecision, type ModerationDecision, type ModerationLogPage, moderationActions, moderationBases, moderationGroundKeys, moderationStates } from "../../shared/moderation.ts";
import type { AccountDeletionPreview, AccountSessions } from "../../shared/account-settings.ts";
import { z } from "zod";
import type { AdminOverview, AdminPage, AdminUser, BookDiagnostics, FirstBookFlagFix, PaymentDiagnostics } from "../../shared/admin.ts";
import type { ApiErrorBody } from "../../shared/api-error.ts";
import type { HelpfulState, PublicReview, ReviewPage } from "../../shared/reviews.ts";
import type { CurrentUser } from "../../shared/auth.ts";
import type { FollowState, FollowingItem } from "../../shared/follows.ts";
import { DIGEST_FREQUENCIES } from "../../shared/returning-readers.ts";
import { BOOK_EXTENSIONS, BOOK_LANGUAGES, CONTENT_RATINGS, DOWNLOAD_FORMATS, type AuthorStats, type BookAuthor, type BookCard, type BookRating, type PublicStats, type StorageUsage, type UserRating } from "../../shared/books.ts";
import type { CreatedEReaderKey, EReaderKey } from "../../shared/e-reader-keys.ts";
import type { SentToEReader } from "../../shared/e-reader-mail.ts";
import type { BookEdition, BookEditions } from "../../shared/editions.ts";
import { GENRE_KEYS } from "../../shared/genres.ts";
import type { AuthorProfile } from "../../shared/page-meta.ts";
import { READER_FORMATS, type OpenedBook, type SavedPosition, type WordView } from "../../shared/reading.ts";
import type { AuthorPayment, PaymentCancellation, PaymentHold, PayoutSla, PublicConfig } from "../../shared/wallet.ts";
import { SHELVES, TAKING_CHANNELS, type BookPage, type ContinueReading, type PublicReader, type ShelfEntry, type ShelfMap, type ShelvedBook, type TakenBook } from "../../shared/shelves.ts";
import { type DownloadReport, type DownloadTally, NOT_COUNTED_REASONS } from "../../shared/download-report.ts";
import type { BookPlacement, SeriesPage, SeriesSummary, TagSuggestion } from "../../shared/series-and-tags.ts";

/*
 * What the API answers, as zod schemas for its OpenAPI description (docs/decisions/0032-feeds-sitemaps-and-openapi.md).
 * The answers' types are declared in shared/ and the server builds them as those types; each schema
 * here is typed as the shared type it describes, so a field added to one without the other fails the
 * typecheck, and openapi.api.test.ts holds real answers to these schemas (strict: no field undescribed).
 */

const timestamp = z.iso.datetime({ offset: true });
const uuid = z.uuid();

export const apiErrorSchema = z
  .strictObject({
    message: z.string().meta({ description: "A sentence for people, in English." }),
    code: z.string().meta({ description: "Stable machine-readable code, e.g. validation_failed, not_found, unauthorized." }),
    fields: z.record(z.string(), z.string()).optional().meta({ description: "Per-field translation keys of a refused input." }),
    requestId: z.string().optional().meta({ description: "On unexpected errors: quote it to find the log." }),
  })
  .meta({ id: "ApiError", description: "Every error of the API has this shape (docs/product.md#errors)." }) satisfies z.ZodType<ApiErrorBody>;

const bookAuthor: z.ZodType<BookAuthor> = z
  .strictObject({ id: uuid, firstName: z.string().nullable(), lastName: z.string().nullable(), displayName: z.string().nullable() })
  .meta({ id: "BookAuthor" });

export const bookCardSchema: z.ZodType<BookCard> = z
  .strictObject({
    id: z.number().int(),
    title: z.string(),
    description: z.string().nullable(),
    genre: z.enum(GENRE_KEYS).nullable(),
    language: z.enum(BOOK_LANGUAGES),
    contentRating: z.enum(CONTENT_RATINGS).meta({ description: "The author's rating; explicit books are listed only for readers who chose to see them." }),
    coverImageUrl: z.string().nullable(),
    fileType: z.enum(BOOK_EXTENSIONS),
    fileSize: z.number().int(),
    formats: z
      .array(z.strictObject({ format: z.enum(DOWNLOAD_FORMATS), size: z.number().int(), mimeType: z.string() }).meta({ id: "BookFileFormat" }))
      .meta({ description: "The files a reader may take (POST /api/books/{id}/download?format=…), the book's own first; a Word book's EPUB once Plume has made it." }),
    pageCount: z.number().int().nullable(),
    downloadCount: z.number().int(),
    rating: z.number(),
    reviewCount: z.number().int(),
    createdAt: timestamp,
    updatedAt: timestamp,
    author: bookAuthor,
    moderationState: z.enum(moderationStates).optional(),
  })
  .meta({ id: "BookCard" });

export const currentUserSchema: z.ZodType<CurrentUser> = z
  .strictObject({
    id: uuid,
    username: z.string(),
    email: z.string().nullable(),
    emailVerified: z.boolean(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    displayName: z.string(),
    profileImageUrl: z.string().nullable(),
    walletAddress: z.string().nullable(),
    notifyPaymentCompleted: z.boolean(),
    showExplicit: z.boolean(),
    shelvesPublic: z.boolean().meta({ description: "Whether the reader's shelves are shown at /readers/{username}." }),
    eReaderEmail: z.string().nullable(),
    digestFrequency: z.enum(DIGEST_FREQUENCIES),
    totalDownloads: z.number().int(),
    totalEarnings: z.string().meta({ description: "PME, as a decimal string." }),
    isAdmin: z.boolean(),
    isNewAccount: z.boolean().meta({ description: "True until the account signs in again after registering." }),
    createdAt: timestamp,
  })
  .meta({ id: "CurrentUser" });

export const publicConfigSchema: z.ZodType<PublicConfig> = z
  .strictObject({
    productName: z.string(),
    contactEmail: z.string().nullable(),
    legalContact: z.string().nullable(),
    mailSender: z.string(),
    rewards: z.strictObject({ promoCutoff: timestamp, countedPerAddressPerDay: z.number().int() }),
    token: z.strictObject({
      address: z.string(),
      symbol: z.literal("PME"),
      decimals: z.literal(18),
      chainId: z.number().int(),
      chainName: z.string().nullable(),
      rpcUrl: z.string(),
      explorerUrl: z.string().nullable(),
    }),
    walletConnect: z.strictObject({ projectId: z.string(), relayUrl: z.string() }).nullable(),
  })
  .meta({ id: "PublicConfig" });

export const sentToEReaderSchema: z.ZodType<SentToEReader> = z
  .strictObject({ sentTo: z.string(), fileName: z.string(), mimeType: z.string() })
  .meta({ id: "SentToEReader" });

export const publicStatsSchema: z.ZodType<PublicStats> = z
  .strictObject({ totalBooks: z.number().int(), totalAuthors: z.number().int(), totalDownloads: z.number().int() })
  .meta({ id: "PublicStats" });

export const bookRatingSchema: z.ZodType<BookRating> = z.strictObject({ avgRating: z.number(), reviewCount: z.number().int() }).meta({ id: "BookRating" });

export const userRatingSchema: z.ZodType<UserRating> = z
  .strictObject({ userRating: z.number().int().meta({ description: "1 to 5, or 0 when not rated." }) })
  .meta({ id: "UserRating" });

export const authorStatsSchema: z.ZodType<AuthorStats> = z
  .strictObject({
    totalDownloads: z.number().int(),
    monthlyDownloads: z.array(z.strictObject({ month: z.string().regex(/^\d{4}-\d{2}$/), downloads: z.number().int() })),
  })
  .meta({ id: "AuthorStats" });

export const authorProfileSchema: z.ZodType<AuthorProfile> = z
  .strictObject({ author: bookAuthor, memberSince: timestamp, totalDownloads: z.number().int(), books: z.array(bookCardSchema) })
  .meta({ id: "AuthorProfile" });


const paymentHoldShape = {
  since: timestamp.meta({ description: "When the hold began: the decision's time, or the notice's." }),
  because: z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("decision"), decisionId: z.number().int(), action: z.enum(["hide", "remove", "suspend"]), facts: z.string() }),
    z.strictObject({ kind: z.literal("notice"), category: z.enum(paymentHoldingCategories) }),
  ]),
};
const paymentHoldSchema: z.ZodType<PaymentHold> = z
  .strictObject(paymentHoldShape)
  .meta({ id: "PaymentHold", description: "Why a book's owed payment is held, never sent: the moderation decision in force with its facts, or an open copyright or illegal-content notice." });

const paymentCancellationSchema: z.ZodType<PaymentCancellation> = z
  .strictObject({ decisionId: z.number().int(), at: timestamp, facts: z.string() })
  .meta({ id: "PaymentCancellation", description: "The removal that cancelled a payment: its statement of reasons' id, time and facts." });

const paymentWaitSchema = z
  .discriminatedUnion("reason", [
    z.strictObject({ reason: z.literal("under-review"), ...paymentHoldShape }),
    z.strictObject({ reason: z.literal("no-wallet") }),
    z.strictObject({ reason: z.literal("hold"), until: timestamp }),
    z.strictObject({ reason: z.literal("retry"), until: timestamp }),
    z.strictObject({ reason: z.literal("sending") }),
    z.strictObject({ reason: z.literal("finality") }),
  ])
  .meta({ id: "PaymentWait", description: "Why a pending payment has not arrived: held while its book is under review, no wallet, the hold period or the next try (until a time), on its way, waiting for finality." });

export const authorPaymentSchema: z.ZodType<AuthorPayment> = z
  .strictObject({
    id: z.number().int(),
    amount: z.string(),
    status: z.enum(["pending", "completed", "failed", "cancelled"]),
    triggeredAt: timestamp.meta({ description: "When it became owed." }),
    completedAt: timestamp.nullable().meta({ description: "When it was finalized." }),
    transactionHash: z.string().nullable(),
    bookId: z.number().int().nullable(),
    bookTitle: z.string().nullable(),
    kind: z.enum(["milestone", "first-book-bonus"]),
    milestone: z.number().int().nullable(),
    sentAt: timestamp.nullable().meta({ description: "When its first transaction was sent." }),
    waiting: paymentWaitSchema.nullable().meta({ description: "Pending payments only." }),
    failureReason: z.string().nullable().meta({ description: "Failed payments only: what went wrong, when known." }),
    cancellation: paymentCancellationSchema.nullable().meta({ description: "Cancelled payments only: the book's removal that cancelled it." }),
  })
  .meta({ id: "Payment", description: "A payment with its timeline: owed (triggeredAt), sent (sentAt), finalized (completedAt)." });

const downloadTallyShape = {
  logged: z.number().int(),
  counted: z.number().int(),
  notCounted: z.strictObject(Object.fromEntries(NOT_COUNTED_REASONS.map((reason) => [reason, z.number().int()])) as Record<(typeof NOT_COUNTED_REASONS)[number], z.ZodNumber>),
};
const downloadTallySchema: z.ZodType<DownloadTally> = z.strictObject(downloadTallyShape).meta({
  id: "DownloadTally",
  description: "Logged downloads: counted plus every reason not to count adds up to logged. `unrecorded`: logged before reasons were kept.",
});

export const downloadReportSchema: z.ZodType<DownloadReport> = z
  .strictObject({
    months: z.array(z.string().regex(/^\d{4}-\d{2}$/)),
    books: z.array(
      z.strictObject({
        bookId: z.number().int(),
        title: z.string(),
        deleted: z.boolean(),
        months: z.array(z.strictObject({ month: z.string().regex(/^\d{4}-\d{2}$/), ...downloadTallyShape })),
        total: downloadTallySchema,
      }),
    ),
  })
  .meta({ id: "DownloadReport" });

export const payoutSlaSchema: z.ZodType<PayoutSla> = z
  .strictObject({
    days: z.number().int(),
    completed: z.number().int(),
    p50Seconds: z.number().nullable(),
    p99Seconds: z.number().nullable(),
    oldestOwedAt: timestamp.nullable(),
    oldestOwedAgeSeconds: z.number().int().nullable(),
  })
  .meta({ id: "PayoutSla" });

const savedPositionSchema: z.ZodType<SavedPosition> = z
  .strictObject({
    page: z.number().int().meta({ description: "A PDF's page, a reading view's section or an EPUB's spine item, from 1." }),
    percentage: z.number().nullable().meta({ description: "How far through the whole book, 0 to 1." }),
    locator: z.string().nullable().meta({ description: "The exact place in the file it was read in: an EPUB CFI, or KOReader's progress." }),
    format: z.enum(READER_FORMATS).nullable(),
    device: z.string().nullable().meta({ description: "The e-reader that saved it, or null for a browser." }),
    earlierEdition: z
      .literal(true)
      .optional()
      .meta({ description: "Saved in an older edition of the book's file: open the current one at percentage (docs/product.md#editions)." }),
  })
  .meta({ id: "SavedPosition" });

export const openedBookSchema: z.ZodType<OpenedBook> = z
  .strictObject({
    id: z.number().int(),
    title: z.string(),
    format: z.enum(READER_FORMATS),
    pageCount: z.number().int().nullable(),
    position: savedPositionSchema.nullable().meta({ description: "Where this reader was, in the browser or on an e-reader, or null the first time." }),
  })
  .meta({ id: "OpenedBook" });

export const wordViewSchema: z.ZodType<WordView> = z
  .strictObject({ pages: z.array(z.string()).meta({ description: "Sanitized HTML, one string per page." }) })
  .meta({ id: "WordView" });

const eReaderKeyShape = { id: uuid, name: z.string(), createdAt: timestamp, lastUsedAt: timestamp.nullable(), revokedAt: timestamp.nullable() };
export const eReaderKeySchema: z.ZodType<EReaderKey> = z.strictObject(eReaderKeyShape).meta({ id: "EReaderKey" });
export const createdEReaderKeySchema: z.ZodType<CreatedEReaderKey> = z
  .strictObject({ ...eReaderKeyShape, key: z.string().meta({ description: "Shown this once; only its hash is kept." }) })
  .meta({ id: "CreatedEReaderKey" });

export const firstBookFlagFixSchema: z.ZodType<FirstBookFlagFix> = z
  .strictObject({ bookId: z.number().int(), firstBook: z.boolean(), paymentsOwed: z.number().int() })
  .meta({ id: "FirstBookFlagFix" });

export const adminOverviewSchema: z.ZodType<AdminOverview> = z
  .strictObject({
    totals: z.strictObject({ users: z.number().int(), books: z.number().int(), activeUsers30Days: z.number().int() }),
    storageQuotaBytes: z.number().int(),
  })
  .meta({ id: "AdminOverview" });

const adminPage = <Item extends z.ZodType>(item: Item) =>
  z.strictObject({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });

export const adminUsersPageSchema: z.ZodType<AdminPage<AdminUser>> = adminPage(
  z.strictObject({
    id: uuid,
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    username: z.string(),
    booksCount: z.number().int(),
    totalDownloads: z.number().int(),
    storageBytes: z.number().int(),
    books: z.array(z.strictObject({ id: z.number().int(), title: z.string(), downloadCount: z.number().int(), tokensEarned: z.number() })),
  }),
).meta({ id: "AdminUsersPage" });

export const adminBooksPageSchema: z.ZodType<AdminPage<BookDiagnostics>> = adminPage(
  z.strictObject({
    bookId: z.number().int(),
    bookTitle: z.string(),
    authorId: uuid,
    authorName: z.string().nullable(),
    authorEmail: z.string().nullable(),
    downloadCount: z.number().int(),
    paidMilestones: z.number().int(),
    canReceiveFirstBookBonus: z.boolean(),
    issues: z.array(z.enum(["not_marked_as_first_book", "bonus_already_paid", "no_first_download_date", "after_cutoff_date", "no_wallet_address"])),
    authorFirstBookId: z.number().int().nullable(),
    moderationState: z.enum(moderationStates).nullable(),
    paidAmount: z.string().meta({ description: "PME completed for the book: on chain, it cannot be taken back." }),
    cancelledAmount: z.string().meta({ description: "PME its removal cancelled before it was sent." }),
  }),
).meta({ id: "AdminBooksPage" });

const queuedPayment = z.strictObject({
  id: z.number().int(),
  bookId: z.number().int().nullable(),
  bookTitle: z.string().nullable(),
  authorId: uuid,
  authorName: z.string(),
  amount: z.string(),
  stage: z.enum(["queued", "signed", "broadcast", "confirming"]),
  status: z.enum(["pending", "failed", "cancelled"]),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  nextAttemptAt: timestamp,
  waitingForWallet: z.boolean(),
  hold: paymentHoldSchema.nullable(),
  cancellation: paymentCancellationSchema.nullable(),
});

export const paymentDiagnosticsSchema: z.ZodType<PaymentDiagnostics> = z
  .strictObject({
    queue: z.strictObject({
      pending: z.array(queuedPayment),
      held: z.array(queuedPayment),
      inFlight: z.array(queuedPayment),
      failed: z.array(queuedPayment),
      cancelled: z.array(queuedPayment),
    }),
    reconciliation: z.discriminatedUnion("available", [
      z.strictObject({
        available: z.literal(true),
        sentOnChain: z.string(),
        completedInLedger: z.string(),
        transfersWithoutPayment: z.array(z.strictObject({ transactionHash: z.string(), to: z.string(), amount: z.string() })),
        paymentsWithoutTransfer: z.array(z.strictObject({ paymentId: z.number().int(), transactionHash: z.string().nullable() })),
        completedOnEarlierChain: z.array(z.number().int()),
      }),
      z.strictObject({ available: z.literal(false), reason: z.string() }),
    ]),
    suspiciousActivity: z.array(
      z.strictObject({
        kind: z.enum(["address_book_burst", "shared_address", "book_spike", "deleted_accounts"]),
        book: z.strictObject({ id: z.number().int(), title: z.string() }).nullable(),
        ipAddress: z.string().nullable(),
        addressLabel: z.string().nullable(),
        downloads: z.number().int(),
        counted: z.number().int(),
        accounts: z.number().int(),
        windowStart: timestamp,
        windowEnd: timestamp,
      }),
    ),
    payoutHealth: z
      .strictObject({
        state: z.enum(["sending", "low-gas", "low-pme", "finality-lag", "fee-ceiling"]),
        since: timestamp,
        checkedAt: timestamp,
        hotWallet: z.string(),
        gasBalance: z.string(),
        gasMinimum: z.string(),
        tokenBalance: z.string(),
        tokenMinimum: z.string(),
        finality: z.strictObject({
          mode: z.enum(["finalized-tag", "depth"]),
          lagBlocks: z.number().int(),
          lagSeconds: z.number().int(),
          maxLagSeconds: z.number().int(),
        }),
        maxFeeGwei: z.string(),
        feeNeededGwei: z.string().nullable(),
      })
      .nullable()
      .meta({ description: "What the payout sender last saw of its hot wallet and chain; null until it has looked once." }),
  })
  .meta({ id: "PaymentDiagnostics" });

export const accountSessionsSchema: z.ZodType<AccountSessions> = z
  .strictObject({
    sessions: z.array(
      z.strictObject({
        id: z.string().meta({ description: "A digest of the session, never its cookie." }),
        current: z.boolean(),
        signedInAt: timestamp.nullable(),
        lastActiveAt: timestamp,
        userAgent: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "AccountSessions" });

export const storageUsageSchema: z.ZodType<StorageUsage> = z
  .strictObject({ usedBytes: z.number().int(), limitBytes: z.number().int() })
  .meta({ id: "StorageUsage" });

export const accountDeletionPreviewSchema: z.ZodType<AccountDeletionPreview> = z
  .strictObject({
    books: z.number().int(),
    owedPayments: z.number().int(),
    owedAmount: z.string().meta({ description: "PME, as a decimal string." }),
    walletAddress: z.string().nullable(),
  })
  .meta({ id: "AccountDeletionPreview" });

const moderationDecisionFields = {
  id: z.number().int(),
  action: z.enum(moderationActions),
  bookId: z.number().int().nullable(),
  bookTitle: z.string().nullable(),
  reviewId: z.number().int().nullable(),
  accountId: uuid,
  ground: z.enum(moderationGroundKeys).nullable(),
  basis: z.enum(moderationBases),
  facts: z.string(),
  createdAt: timestamp,
};

export const moderationDecisionSchema: z.ZodType<ModerationDecision> = z.strictObject(moderationDecisionFields).meta({ id: "ModerationDecision" });

const appealSummaryFields = {
  id: z.number().int(),
  kind: z.enum(appealKinds),
  status: z.enum(appealStatuses),
  createdAt: timestamp,
  decidedAt: timestamp.nullable(),
  outcomeFacts: z.string().nullable(),
};

export const appealSummarySchema: z.ZodType<AppealSummary> = z.strictObject(appealSummaryFields).meta({ id: "AppealSummary" });

export const decisionForAuthorSchema: z.ZodType<DecisionForAuthor> = z
  .strictObject({
    ...moderationDecisionFields,
    appeal: appealSummarySchema.nullable(),
    contest: z.strictObject({ kind: z.enum(appealKinds), until: timestamp }).nullable(),
  })
  .meta({ id: "DecisionForAuthor" });

export const appealForReviewSchema: z.ZodType<AppealForReview> = z
  .strictObject({
    ...appealSummaryFields,
    statement: z.string(),
    legalName: z.string().nullable(),
    postalAddress: z.string().nullable(),
    phone: z.string().nullable(),
    decision: z.strictObject({ id: z.number().int(), action: z.enum(moderationActions), ground: z.enum(moderationGroundKeys).nullable(), facts: z.string(), createdAt: timestamp }),
    book: z.strictObject({ id: z.number().int(), title: z.string() }).nullable(),
    review: z.strictObject({ id: z.number().int(), text: z.string() }).nullable(),
    account: z.strictObject({ id: uuid, name: z.string() }),
  })
  .meta({ id: "AppealForReview" });

const loggedModerationDecisionSchema: z.ZodType<LoggedModerationDecision> = z
  .strictObject({ ...moderationDecisionFields, accountName: z.string(), decidedBy: z.string().nullable(), reviewExcerpt: z.string().nullable(), inEffect: z.boolean() })
  .meta({ id: "LoggedModerationDecision" });

export const moderationLogPageSchema: z.ZodType<ModerationLogPage> = z
  .strictObject({ decisions: z.array(loggedModerationDecisionSchema), page: z.number().int(), hasMore: z.boolean() })
  .meta({ id: "ModerationLogPage" });

const countsOf = <K extends string>(keys: readonly [K, ...K[]]) => z.strictObject(Object.fromEntries(keys.map((key) => [key, z.number().int()])) as Record<K, z.ZodNumber>);

export const transparencyReportSchema: z.ZodType<TransparencyReport> = z
  .strictObject({
    generatedAt: timestamp,
    months: z.array(
      z.strictObject({
        month: z.string().regex(/^\d{4}-\d{2}$/),
        noticesByCategory: countsOf(noticeCategories),
        noticesByOutcome: countsOf(noticeOutcomes),
        decisionsByAction: countsOf(moderationActions),
        medianSecondsToDecision: z.number().int().nullable(),
      }),
    ),
  })
  .meta({ id: "TransparencyReport" });

export const noticeReceiptSchema: z.ZodType<NoticeReceipt> = z.strictObject({ id: z.number().int(), receivedAt: timestamp }).meta({ id: "NoticeReceipt" });

const queuedNoticeSchema = z.strictObject({
  id: z.number().int(),
  category: z.enum(noticeCategories),
  source: z.enum(noticeSources),
  explanation: z.string(),
  url: z.string(),
  reporterName: z.string().nullable(),
  reporterEmail: z.string().nullable(),
  originalWork: z.string().nullable(),
  rightsHolder: z.string().nullable(),
  sworn: z.boolean(),
  createdAt: timestamp,
});

export const noticeGroupSchema: z.ZodType<NoticeGroup> = z
  .strictObject({
    subject: z.discriminatedUnion("kind", [
      z.strictObject({
        kind: z.literal("book"),
        bookId: z.number().int(),
        title: z.string(),
        moderationState: z.enum(moderationStates).nullable(),
        deletedAt: timestamp.nullable(),
        accountId: uuid,
        accountName: z.string(),
      }),
      z.strictObject({ kind: z.literal("account"), accountId: uuid, accountName: z.string(), suspended: z.boolean() }),
      z.strictObject({
        kind: z.literal("review"),
        reviewId: z.number().int(),
        bookId: z.number().int(),
        title: z.string(),
        text: z.string(),
        rating: z.number().int(),
        accountId: uuid,
        accountName: z.string(),
      }),
    ]),
    urgent: z.boolean(),
    oldestAt: timestamp,
    notices: z.array(queuedNoticeSchema),
  })
  .meta({ id: "NoticeGroup" });

export const settledNoticeSchema: z.ZodType<SettledNotice> = z.strictObject({ id: z.number().int(), status: z.enum(["actioned", "dismissed"]) }).meta({ id: "SettledNotice" });

export const followStateSchema: z.ZodType<FollowState> = z
  .strictObject({
    following: z.boolean(),
    followerCount: z.number().int().nullable().meta({ description: "Only for the author themself; null for everyone else." }),
  })
  .meta({ id: "FollowState" });

export const followingItemsSchema: z.ZodType<FollowingItem[]> = z
  .array(
    z.strictObject({
      kind: z.enum(["book", "edition"]),
      at: timestamp,
      edition: z.number().int().nullable(),
      book: bookCardSchema,
    }),
  )
  .meta({ id: "FollowingItems" });

export const unsubscribedSchema: z.ZodType<{ digestFrequency: "off" }> = z.strictObject({ digestFrequency: z.literal("off") }).meta({ id: "Unsubscribed" });
const bookEditionSchema: z.ZodType<BookEdition> = z
  .strictObject({
    number: z.number().int().min(1),
    createdAt: timestamp,
    changelog: z.string().nullable().meta({ description: "What changed, in the author's words; null for the first edition." }),
    format: z.enum(BOOK_EXTENSIONS),
    fileSize: z.number().int(),
  })
  .meta({ id: "BookEdition" });

export const bookEditionsSchema: z.ZodType<BookEditions> = z
  .strictObject({
    current: z.number().int().min(1).meta({ description: "The current edition: the book's file." }),
    editions: z.array(bookEditionSchema).meta({ description: "Every edition, newest first; any may be downloaded (POST /api/books/{id}/download?edition=N)." }),
    takenEdition: z
      .number()
      .int()
      .min(1)
      .nullable()
      .meta({ description: "The edition current when the signed-in caller last took the book; null if never (or anonymous). Below current: a new edition since." }),
  })
  .meta({ id: "BookEditions" });

export const publicReviewSchema: z.ZodType<PublicReview> = z
  .strictObject({
    id: z.number().int(),
    readerName: z.string(),
    rating: z.number().int().min(1).max(5),
    text: z.string().meta({ description: "Plain text, line breaks kept; never HTML." }),
    createdAt: timestamp,
    editedAt: timestamp.nullable(),
    reply: z.strictObject({ text: z.string(), at: timestamp }).nullable(),
    helpfulCount: z.number().int().min(0),
    votedHelpful: z.boolean(),
    mine: z.boolean(),
  })
  .meta({ id: "PublicReview" });

export const reviewPageSchema: z.ZodType<ReviewPage> = z
  .strictObject({
    reviews: z.array(publicReviewSchema),
    total: z.number().int(),
    page: z.number().int(),
    hasMore: z.boolean(),
    viewer: z
      .strictObject({ canRate: z.boolean(), tookBook: z.boolean(), isAuthor: z.boolean(), rating: z.number().int(), review: publicReviewSchema.nullable() })
      .nullable()
      .meta({ description: "What the caller may do; null for a visitor." }),
  })
  .meta({ id: "ReviewPage" });

export const writtenReviewSchema = z.strictObject({ review: publicReviewSchema, bookRating: bookRatingSchema }).meta({ id: "WrittenReview" });

export const helpfulStateSchema: z.ZodType<HelpfulState> = z.strictObject({ helpfulCount: z.number().int(), votedHelpful: z.boolean() }).meta({ id: "HelpfulState" });

// Series and tags (docs/product.md#series-and-tags).
const tagSchema = z.strictObject({ slug: z.string(), name: z.string() }).meta({ id: "Tag" });

export const tagSuggestionsSchema: z.ZodType<TagSuggestion[]> = z.array(
  z.strictObject({ slug: z.string(), name: z.string(), books: z.number().int().meta({ description: "Listed books that carry it." }) }).meta({ id: "TagSuggestion" }),
);

export const tagInfoSchema: z.ZodType<TagSuggestion> = z
  .strictObject({ slug: z.string(), name: z.string().meta({ description: "The tag as first written." }), books: z.number().int() })
  .meta({ id: "TagInfo" });

export const seriesSummarySchema: z.ZodType<SeriesSummary> = z
  .strictObject({
    id: z.number().int(),
    title: z.string(),
    description: z.string(),
    bookCount: z.number().int().meta({ description: "Its books not deleted, listed or not." }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "SeriesSummary" });

export const seriesPageSchema: z.ZodType<SeriesPage> = z
  .strictObject({
    id: z.number().int(),
    title: z.string(),
    description: z.string(),
    author: bookAuthor,
    volumes: z.array(z.strictObject({ volume: z.number(), book: bookCardSchema })).meta({ description: "Its listed books this reader may see, in volume order." }),
  })
  .meta({ id: "SeriesPage" });

export const bookPlacementSchema: z.ZodType<BookPlacement> = z
  .strictObject({
    series: z.strictObject({ id: z.number().int(), title: z.string(), volume: z.number(), volumes: z.number().int() }).nullable(),
    next: z.strictObject({ id: z.number().int(), title: z.string(), volume: z.number() }).nullable().meta({ description: "The next listed volume this reader may see." }),
    tags: z.array(tagSchema),
  })
  .meta({ id: "BookPlacement" });
const shelf = z.enum(SHELVES);

export const shelfMapSchema: z.ZodType<ShelfMap> = z
  .strictObject({ shelves: z.record(z.string(), shelf).meta({ description: "Each shelved book's shelf, keyed by the book's id." }) })
  .meta({ id: "ShelfMap" });

export const shelfEntrySchema: z.ZodType<ShelfEntry> = z.strictObject({ bookId: z.number().int(), shelf }).meta({ id: "ShelfEntry" });

const pageOf = <T>(item: z.ZodType<T>, id: string): z.ZodType<BookPage<T>> =>
  z.strictObject({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }).meta({ id });

export const shelfPageSchema = pageOf<ShelvedBook>(z.strictObject({ book: bookCardSchema, shelf, shelvedAt: timestamp }).meta({ id: "ShelvedBook" }), "ShelfPage");

export const takenBooksPageSchema = pageOf<TakenBook>(
  z
    .strictObject({
      book: bookCardSchema,
      channels: z.array(z.enum(TAKING_CHANNELS)).meta({ description: "Every way the reader took the book: download, read, opds (an e-reader app), send (mailed to their e-reader)." }),
      lastTakenAt: timestamp,
    })
    .meta({ id: "TakenBook" }),
  "TakenBooksPage",
);

export const continueReadingSchema: z.ZodType<ContinueReading> = z
  .strictObject({
    items: z.array(
      z
        .strictObject({
          book: bookCardSchema,
          page: z.number().int(),
          percentage: z.number().nullable(),
          format: z.enum(READER_FORMATS).nullable(),
          updatedAt: timestamp,
        })
        .meta({ id: "ContinueReadingItem" }),
    ),
  })
  .meta({ id: "ContinueReading" });

const publicShelf = z.strictObject({ books: z.array(bookCardSchema), total: z.number().int() });

export const publicReaderSchema: z.ZodType<PublicReader> = z
  .strictObject({ username: z.string(), shelves: z.strictObject({ want: publicShelf, reading: publicShelf, read: publicShelf }) })
  .meta({ id: "PublicReader", description: "A reader's username and the listed books of their shelves; nothing else of the account." });
