import type { RequestHandler } from "express";
import type { PmeChain } from "../chain/pme-chain.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import { apiMiss } from "../http/error-handler.ts";
import { sendMetrics } from "./metrics.ts";
import type { Readiness } from "./readiness-service.ts";

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", "no-store");
  next();
};

export interface OperationsDeps {
  db: Db;
  /** The hot wallet's chain: its address is a metric's label. */
  payoutChain: PmeChain;
  /** The checks of the readiness probe (server/system/readiness-service.ts), made once per app. */
  readiness: () => Promise<Readiness>;
  metricsToken: string | undefined;
}

const route = routesOf<OperationsDeps>();

/**
 * Liveness, readiness and metrics (docs/decisions/0040). Public, without a session or an abuse limit:
 * a prober calls every few seconds from one address. Without METRICS_TOKEN, /metrics is a miss like
 * any unknown path, never the browser app's page.
 */
export const operationsRoutes = routeGroup("", [
  route(
    {
      method: "GET",
      path: "/healthz",
      access: "public",
      summary: "Liveness: the process answers",
      tag: "operations",
      before: () => [noStore],
      answer: { status: 200, description: "Always {\"status\":\"ok\"} while the process runs." },
      errors: [],
    },
    // Alive is all it says: a database outage must not make an orchestrator restart every process.
    ({ res }) => void res.json({ status: "ok" }),
  ),
  route(
    {
      method: "GET",
      path: "/readyz",
      access: "public",
      summary: "Readiness: the database, the file store and the chain answer",
      tag: "operations",
      before: () => [noStore],
      answer: { status: 200, description: "Ready, with each check; 503 with the same shape when not." },
      errors: [503],
    },
    async ({ res }, { readiness }) => {
      const { ready, checks, chain } = await readiness();
      res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "not-ready", checks, chain });
    },
  ),
  route(
    {
      method: "GET",
      path: "/metrics",
      access: "public",
      summary: "Prometheus metrics, for a scraper holding METRICS_TOKEN as a bearer token",
      tag: "operations",
      // Its proof is the METRICS_TOKEN bearer token, not a session: a scraper has none (like a reset link, its own proof).
      answer: { status: 200, description: "The metrics, in Prometheus's text format." },
      errors: [401, 404],
    },
    async ({ req, res }, { db, payoutChain, metricsToken }) => {
      if (!metricsToken) throw apiMiss(req);
      await sendMetrics(req, res, { db, hotWallet: payoutChain.hotWallet.address, token: metricsToken });
    },
  ),
]);
