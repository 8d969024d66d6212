import { ADMIN_PAGE_SIZE, type AdminOverview, type AdminPage, type AdminUser, type BookDiagnostics, type PaymentDiagnostics, type PayoutHealth, type QueuedPayment, type SuspiciousBurst } from "@shared/admin";
import type { ModerationLogPage } from "@shared/moderation";
import type { NoticeGroup } from "@shared/notices";
import type { PayoutSla } from "@shared/wallet";
import { jsonResponse, mockFetch } from "@client-test/fixtures";

export const OVERVIEW_URL = "/api/admin/overview-debug";
export const DIAGNOSTICS_URL = "/api/admin/payment-diagnostics";
export const USERS_URL = "/api/admin/users";
export const BOOKS_URL = "/api/admin/books?show=attention";
export const FIX_URL = "/api/admin/fix-first-book-flag";
export const SLA_URL = "/api/admin/payout-sla";
export const NOTICES_URL = "/api/admin/notices";
export const DECISION_LOG_URL = "/api/admin/moderation/decisions?page=1";

const AUTHOR_ID = "5d0f1c2e-8b7a-4c3d-9e2f-1a2b3c4d5e6f";

/** The queue: a book reported twice (once anonymously, about minors), then an author reported once. */
export const noticeQueue: NoticeGroup[] = [
  {
    subject: { kind: "book", bookId: 7, title: "Notes on the Analytical Engine", moderationState: null, deletedAt: null, accountId: AUTHOR_ID, accountName: "Ada Lovelace" },
    urgent: true,
    oldestAt: "2025-03-01T08:00:00.000Z",
    notices: [
      { id: 11, category: "minors", explanation: "This book contains material that must not be here.", url: "https://plume.example/books/7-notes", reporterName: null, reporterEmail: null, originalWork: null, rightsHolder: null, sworn: false, source: "form", createdAt: "2025-03-01T08:00:00.000Z" },
      { id: 12, category: "copyright", explanation: "A copy of my published novel, word for word.", url: "https://plume.example/books/7/read", reporterName: "Rosa Editora", reporterEmail: "rosa@example.test", originalWork: "La novela, 2019", rightsHolder: "Editorial Rosa", sworn: true, source: "form", createdAt: "2025-03-02T08:00:00.000Z" },
    ],
  },
  {
    subject: { kind: "account", accountId: AUTHOR_ID, accountName: "Ada Lovelace", suspended: false },
    urgent: false,
    oldestAt: "2025-03-03T08:00:00.000Z",
    notices: [{ id: 13, category: "spam", explanation: "Every book of this author is an advertisement.", url: "https://plume.example/authors/x", reporterName: "Ana", reporterEmail: "ana@example.test", originalWork: null, rightsHolder: null, sworn: false, source: "form", createdAt: "2025-03-03T08:00:00.000Z" }],
  },
];

export const decisionLog: ModerationLogPage = {
  page: 1,
  hasMore: false,
  decisions: [
    {
      id: 4,
      action: "hide",
      bookId: 9,
      bookTitle: "Sketch of the Engine",
      reviewId: null,
      accountId: AUTHOR_ID,
      accountName: "Ada Lovelace",
      ground: "terms-spam",
      basis: "notice",
      facts: "The book is an advertisement for a casino.",
      createdAt: "2025-03-04T08:00:00.000Z",
      decidedBy: "admin",
      reviewExcerpt: null,
      inEffect: true,
    },
  ],
};

export const adminOverview: AdminOverview = {
  totals: { users: 1234, books: 3, activeUsers30Days: 2 },
  storageQuotaBytes: 1024 * 1024 * 1024,
};

/** One page of a list, with every match on it. */
export const adminPage = <Item>(items: Item[], total = items.length, page = 1): AdminPage<Item> => ({ items, total, page, pageSize: ADMIN_PAGE_SIZE });

export const adminUsers: AdminUser[] = [
    {
      id: "user-ada",
      firstName: "Ada",
      lastName: "Lovelace",
      username: "ada",
      booksCount: 2,
      // 20 more than the listed books: a deleted book's downloads still count.
      totalDownloads: 1562,
      storageBytes: 120 * 1024 * 1024,
      books: [
        { id: 7, title: "Notes on the Analytical Engine", downloadCount: 42, tokensEarned: 3 },
        { id: 9, title: "Sketch of the Engine", downloadCount: 1500, tokensEarned: 0 },
      ],
    },
    { id: "user-jose", firstName: "José", lastName: "Martí", username: "jmarti", booksCount: 0, totalDownloads: 0, storageBytes: 0, books: [] },
];

export function bookDiagnostics(overrides: Partial<BookDiagnostics> = {}): BookDiagnostics {
  return {
    bookId: 7,
    bookTitle: "Notes on the Analytical Engine",
    authorId: "user-ada",
    authorName: "Ada Lovelace",
    authorEmail: "ada@example.test",
    downloadCount: 42,
    paidMilestones: 2,
    canReceiveFirstBookBonus: true,
    issues: [],
    authorFirstBookId: 7,
    moderationState: null,
    paidAmount: "2",
    cancelledAmount: "0",
    ...overrides,
  };
}

export function queuedPayment(overrides: Partial<QueuedPayment> = {}): QueuedPayment {
  return {
    id: 31,
    bookId: 7,
    bookTitle: "Notes on the Analytical Engine",
    authorId: "user-ada",
    authorName: "Ada Lovelace",
    amount: "1.00",
    stage: "queued",
    status: "pending",
    attempts: 0,
    lastError: null,
    nextAttemptAt: "2025-03-01T10:00:00.000Z",
    waitingForWallet: false,
    hold: null,
    cancellation: null,
    ...overrides,
  };
}

export function suspiciousBurst(overrides: Partial<SuspiciousBurst> = {}): SuspiciousBurst {
  return {
    kind: "address_book_burst",
    book: { id: 7, title: "Notes on the Analytical Engine" },
    ipAddress: "192.0.2.10",
    addressLabel: null,
    downloads: 1250,
    counted: 3,
    accounts: 12,
    windowStart: "2025-03-01T10:00:00.000Z",
    windowEnd: "2025-03-01T10:45:00.000Z",
    ...overrides,
  };
}

export function paymentDiagnostics(overrides: Partial<PaymentDiagnostics> = {}): PaymentDiagnostics {
  return {
    queue: { pending: [], held: [], inFlight: [], failed: [], cancelled: [] },
    reconciliation: {
      available: true,
      sentOnChain: "2.0",
      completedInLedger: "2.0",
      transfersWithoutPayment: [],
      paymentsWithoutTransfer: [],
      completedOnEarlierChain: [],
    },
    suspiciousActivity: [],
    payoutHealth: payoutHealth(),
    ...overrides,
  };
}

export function payoutHealth(overrides: Partial<PayoutHealth> = {}): PayoutHealth {
  return {
    state: "sending",
    since: "2025-03-01T08:00:00.000Z",
    checkedAt: "2025-03-01T10:00:00.000Z",
    hotWallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    gasBalance: "12.5",
    gasMinimum: "1.0",
    tokenBalance: "480.0",
    tokenMinimum: "1.0",
    finality: { mode: "finalized-tag", lagBlocks: 3, lagSeconds: 6, maxLagSeconds: 600 },
    maxFeeGwei: "1000.0",
    feeNeededGwei: null,
    ...overrides,
  };
}

export function payoutSla(overrides: Partial<PayoutSla> = {}): PayoutSla {
  return {
    days: 30,
    completed: 1234,
    p50Seconds: 42,
    p99Seconds: 4800,
    oldestOwedAt: "2025-03-01T08:00:00.000Z",
    oldestOwedAgeSeconds: 103_680,
    ...overrides,
  };
}

interface AdminApi {
  overview?: () => Response;
  /** Answers GET /api/admin/users, whatever its search and page; sees the URL. */
  users?: (url: string) => Response;
  /** Answers GET /api/admin/books, whatever its search, view and page; sees the URL. */
  books?: (url: string) => Response;
  diagnostics?: () => Response;
  sla?: () => Response;
  /** Answers POST /api/admin/fix-first-book-flag; sees the parsed body. */
  fixFirstBookFlag?: (body: unknown) => Response | Promise<Response>;
  notices?: () => Response;
  decisions?: () => Response;
  /** Answers the moderation POSTs (a decision or a dismissal); sees the URL and the parsed body. */
  moderate?: (url: string, body: unknown) => Response | Promise<Response>;
}

/** Stands in for the admin API; each answer can be replaced, and every call is recorded. */
export function mockAdminApi({
  overview = () => jsonResponse(200, adminOverview),
  users = () => jsonResponse(200, adminPage(adminUsers)),
  books = () => jsonResponse(200, adminPage([bookDiagnostics()])),
  diagnostics = () => jsonResponse(200, paymentDiagnostics()),
  sla = () => jsonResponse(200, payoutSla()),
  fixFirstBookFlag = () => jsonResponse(200, { bookId: 7, firstBook: true, paymentsOwed: 0 }),
  notices = () => jsonResponse(200, []),
  decisions = () => jsonResponse(200, { page: 1, hasMore: false, decisions: [] }),
  moderate = () => jsonResponse(201, {}),
}: AdminApi = {}) {
  return mockFetch((url, init) => {
    if (url === OVERVIEW_URL) return overview();
    if (url.startsWith(USERS_URL)) return users(url);
    if (url.startsWith("/api/admin/books?") || url === "/api/admin/books") return books(url);
    if (url === DIAGNOSTICS_URL) return diagnostics();
    if (url === SLA_URL) return sla();
    if (url === FIX_URL && init?.method === "POST") return fixFirstBookFlag(JSON.parse(String(init.body)));
    if (url === NOTICES_URL) return notices();
    if (url.startsWith("/api/admin/moderation/decisions")) return decisions();
    if (/^\/api\/admin\/(books|users|notices|reviews)\/[^/]+\/(moderation|dismiss)$/.test(url) && init?.method === "POST") return moderate(url, JSON.parse(String(init.body)));
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
}

/** How many times the mocked fetch was asked for this URL. */
export function callsTo(fetchMock: ReturnType<typeof mockFetch>, url: string): number {
  return fetchMock.mock.calls.filter(([input]) => String(input) === url).length;
}
