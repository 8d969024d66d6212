import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import { formatUnits } from "ethers";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Db } from "../db/client.ts";
import { payoutHealthStates } from "../db/schema.ts";
import { routePatternOf } from "../http/access.ts";
import { unauthorized } from "../http/errors.ts";
import { countPaymentsByStatus, oldestOwedAt } from "../rewards/payments-repository.ts";
import { readPayoutHealth } from "../rewards/payout-health-repository.ts";

/**
 * Plume's Prometheus metrics (docs/decisions/0040). One registry per process: the counters are
 * counted where things happen, the gauges of what the database knows are read at each scrape.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const registers = [metricsRegistry];

const httpDuration = new Histogram({
  name: "plume_http_request_duration_seconds",
  help: "Time to answer a request, by method, route pattern (other: no route of the table matched) and status class",
  labelNames: ["method", "route", "status_class"] as const,
  // From a cached catalog read (a few ms) to a large book's download over a slow line.
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers,
});

export const downloadsRecorded = new Counter({
  name: "plume_downloads_total",
  help: "Downloads recorded, counted or not, with the reason one was not counted (docs/product.md#counting-downloads)",
  labelNames: ["counted", "reason"] as const,
  registers,
});

const uploadsReceived = new Counter({
  name: "plume_uploads_total",
  help: "Book uploads answered: accepted, refused (a bad file, a limit, a failed check) or failed (our error)",
  labelNames: ["outcome"] as const,
  registers,
});

const paymentsByStatus = new Gauge({ name: "plume_payments", help: "Payments by status", labelNames: ["status"] as const, registers });
const oldestOwedAge = new Gauge({ name: "plume_payments_oldest_owed_age_seconds", help: "Age of the oldest payment still owed; 0 when none is", registers });
const hotWalletPol = new Gauge({ name: "plume_hot_wallet_pol", help: "The hot wallet's POL (gas) as the payout worker last read it", registers });
const hotWalletPme = new Gauge({ name: "plume_hot_wallet_pme", help: "The hot wallet's PME as the payout worker last read it", registers });
const finalityLag = new Gauge({ name: "plume_chain_finality_lag_seconds", help: "Seconds between the chain's latest and finalized blocks, as the payout worker last saw them", registers });
const payoutState = new Gauge({ name: "plume_payouts_state", help: "1 for the payout worker's current state (sending, or why it paused)", labelNames: ["state"] as const, registers });

/** Observes each request's duration once it is answered; a request cut before its answer is not a duration. */
export const observeRequests: RequestHandler = (req, res, next) => {
  const end = httpDuration.startTimer();
  res.once("finish", () => end({ method: req.method, route: routePatternOf(res) ?? "other", status_class: `${Math.floor(res.statusCode / 100)}xx` }));
  next();
};

/** Counts a book upload by its answer; put after the access check, so an anonymous attempt is not an upload. */
export const countUploads: RequestHandler = (_req, res, next) => {
  res.once("finish", () => uploadsReceived.inc({ outcome: res.statusCode < 400 ? "accepted" : res.statusCode < 500 ? "refused" : "failed" }));
  next();
};

/** The database's share, read at each scrape: a grouped count, a min and one row, cheap at any size. */
async function readDatabaseGauges(db: Db, hotWallet: string): Promise<void> {
  const [counts, oldest, health] = await Promise.all([countPaymentsByStatus(db), oldestOwedAt(db), readPayoutHealth(db, hotWallet)]);
  paymentsByStatus.reset();
  for (const { status, count } of counts) paymentsByStatus.set({ status }, count);
  oldestOwedAge.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest.getTime()) / 1000));
  // No row yet: the worker has not looked at its wallet; a gauge left unset says nothing rather than 0 POL.
  if (!health) return;
  hotWalletPol.set(Number(formatUnits(health.gasBalance, 18)));
  hotWalletPme.set(Number(formatUnits(health.tokenBalance, 18)));
  finalityLag.set(health.finalityLagSeconds);
  for (const state of payoutHealthStates) payoutState.set({ state }, state === health.state ? 1 : 0);
}

/** Hashed first so that the comparison takes the same time whatever the lengths. */
const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether `Authorization: Bearer <token>` names the token, compared in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(authorization ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(given), digest(token));
}

/** GET /metrics: the Prometheus text, for a scraper that sends the bearer token. */
export async function sendMetrics(req: Request, res: Response, { db, hotWallet, token }: { db: Db; hotWallet: string; token: string }): Promise<void> {
  if (!bearerMatches(req.headers.authorization, token)) {
    res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
    throw unauthorized("This needs the metrics token: Authorization: Bearer <METRICS_TOKEN>.");
  }
  await readDatabaseGauges(db, hotWallet);
  res.setHeader("Cache-Control", "no-store");
  res.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
}
