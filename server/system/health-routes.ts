import type { RequestHandler } from "express";
import type { PmeChain } from "../chain/pme-chain.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { apiNotFound } from "../http/error-handler.ts";
import type { FileStore } from "../storage/file-store.ts";
import { metricsEndpoint } from "./metrics.ts";
import { readinessCheck } from "./readiness-service.ts";

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", "no-store");
  next();
};

export interface OperationsDeps {
  db: Db;
  store: FileStore;
  /** The hot wallet's chain: reported by the readiness probe, never counted against it. */
  payoutChain: PmeChain;
  adminEmail: string | undefined;
  metricsToken: string | undefined;
}

/**
 * Liveness, readiness and metrics (docs/decisions/0040). Public, without a session or an abuse limit:
 * a prober calls every few seconds from one address. Without METRICS_TOKEN, /metrics is a miss like
 * any unknown path, never the browser app's page.
 */
export function operationsRoutes({ db, store, payoutChain, adminEmail, metricsToken }: OperationsDeps): GuardedRouter {
  const readiness = readinessCheck({ db, store, payoutChain });
  return new GuardedRouter("", adminEmail)
    .get("/healthz", noStore, (_req, res) => {
      // Alive is all it says: a database outage must not make an orchestrator restart every process.
      res.json({ status: "ok" });
    })
    .get("/readyz", noStore, async (_req, res) => {
      const { ready, checks, chain } = await readiness();
      res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "not-ready", checks, chain });
    })
    .get("/metrics", metricsToken ? metricsEndpoint({ db, hotWallet: payoutChain.hotWallet.address, token: metricsToken }) : apiNotFound);
}
