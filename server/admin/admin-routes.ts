import { type Reconciliation, adminBooksQuerySchema, adminUsersQuerySchema, fixFirstBookFlagSchema } from "../../shared/admin.ts";
import { fixFirstBookFlag, readAdminOverview, readAdminUsers, readBookDiagnostics, readPaymentDiagnostics } from "./admin-service.ts";
import type { PayoutPolicy, RewardSettings } from "../config.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import * as answers from "../openapi/answer-schemas.ts";

export interface AdminRoutesDeps {
  db: Db;
  rewards: RewardSettings;
  onPaymentsOwed: () => void;
  payouts: { hotWallet: string; policy: PayoutPolicy; reconcile: () => Promise<Reconciliation> };
  storageQuotaBytes: number;
}

const route = routesOf<AdminRoutesDeps>();

/** The admin's screens (docs/product.md#roles): everything under /api/admin, a route or not, is the admin's only. */
export const adminRoutes = routeGroup(
  "/api/admin",
  [
    route(
      {
        method: "GET",
        path: "/api/admin/overview-debug",
        access: "admin",
        summary: "The admin's totals of accounts and books",
        tag: "admin",
        answer: { status: 200, description: "The totals.", json: answers.adminOverviewSchema },
        errors: [],
      },
      (_call, { db, storageQuotaBytes }) => readAdminOverview(db, new Date(), storageQuotaBytes),
    ),
    route(
      {
        method: "GET",
        path: "/api/admin/users",
        access: "admin",
        summary: "A page of accounts (25), searched by name, username or e-mail, with their books",
        tag: "admin",
        query: adminUsersQuerySchema,
        answer: { status: 200, description: "The page, and how many accounts match.", json: answers.adminUsersPageSchema },
        errors: [400],
      },
      ({ query }, { db }) => readAdminUsers(db, query),
    ),
    route(
      {
        method: "GET",
        path: "/api/admin/books",
        access: "admin",
        summary: "A page of books' payment diagnostics (25): those that need the admin, or all; searched by title or author",
        tag: "admin",
        query: adminBooksQuerySchema,
        answer: { status: 200, description: "The page, and how many books match.", json: answers.adminBooksPageSchema },
        errors: [400],
      },
      ({ query }, { db, rewards }) => readBookDiagnostics(db, rewards, query),
    ),
    route(
      {
        method: "GET",
        path: "/api/admin/payment-diagnostics",
        access: "admin",
        summary: "The admin's payment diagnostics: the payout queue, the reconciliation, suspicious activity, the hot wallet's health",
        tag: "admin",
        answer: { status: 200, description: "The diagnostics.", json: answers.paymentDiagnosticsSchema },
        errors: [],
      },
      (_call, { db, rewards, payouts }) => readPaymentDiagnostics(db, rewards, payouts, new Date()),
    ),
    route(
      {
        method: "POST",
        path: "/api/admin/fix-first-book-flag",
        access: "admin",
        summary: "Set or clear a book's first-book flag; an author has one first book at most (409 first_book_taken)",
        tag: "admin",
        body: fixFirstBookFlagSchema,
        answer: { status: 200, description: "The flag as set, and the payments it made owed.", json: answers.firstBookFlagFixSchema },
        errors: [400, 404, 409],
      },
      async ({ body: { bookId, setAsFirstBook } }, { db, rewards, onPaymentsOwed }) => {
        const paymentsOwed = await fixFirstBookFlag(db, bookId, setAsFirstBook, rewards);
        if (paymentsOwed > 0) onPaymentsOwed();
        return { bookId, firstBook: setAsFirstBook, paymentsOwed };
      },
    ),
  ],
  { guardAll: "admin" },
);
