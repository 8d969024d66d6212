import { z } from "zod";
import { authorIdSchema } from "../../shared/book-schemas.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import * as answers from "../openapi/answer-schemas.ts";
import { readAuthorPayments, readPayoutSla } from "./payments-service.ts";

export interface PaymentsRoutesDeps {
  db: Db;
}

const route = routesOf<PaymentsRoutesDeps>();

/** An author's payments with their timelines, for that author and the admin; the payout SLA, for the admin. */
export const paymentsRoutes = routeGroup("/api", [
  route(
    {
      method: "GET",
      path: "/api/authors/:id/payments",
      access: "account-or-admin",
      summary: "An author's payments (the author's own, or the admin)",
      tag: "authors",
      params: authorIdSchema,
      answer: { status: 200, description: "The payments, newest first, each with its timeline and, while pending, why it waits.", json: z.array(answers.authorPaymentSchema) },
      errors: [400],
    },
    ({ params, caller }, { db }) => readAuthorPayments(db, caller, params.id, new Date()),
  ),
  route(
    {
      method: "GET",
      path: "/api/admin/payout-sla",
      access: "admin",
      summary: "The payout SLA: p50 and p99 from owed to completed over 30 days, and the oldest payment still owed",
      tag: "admin",
      answer: { status: 200, description: "The figures; the percentiles are null without completed payments.", json: answers.payoutSlaSchema },
      errors: [],
    },
    (_call, { db }) => readPayoutSla(db, new Date()),
  ),
]);
