import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import type { RequestHandler, Response } from "express";
import { createApp } from "./app.ts";
import { resolveSessionSecret } from "./accounts/session-secret.ts";
import { removeOrphanFiles } from "./books/orphan-files.ts";
import type { Config } from "./config.ts";
import { connectChain } from "./chain/chain-connection.ts";
import { openConfiguredDatabase } from "./db/open-configured.ts";
import { createAppServer } from "./http/app-server.ts";
import { routePatternOf } from "./http/access.ts";
import { hardenHttpServer } from "./http/harden-server.ts";
import { listeningOrigin, siteOriginOf } from "./http/site-origin.ts";
import { configureLogger, logger } from "./system/logger.ts";
import { startBanner } from "./start-banner.ts";
import { createMailer } from "./mail/mailer.ts";
import { mailPaymentNotices } from "./rewards/payment-notices-service.ts";
import { PayoutWorker } from "./rewards/payout-worker.ts";
import { PmeChain } from "./chain/pme-chain.ts";
import type { FileStore } from "./storage/file-store.ts";
import { openFileStore } from "./storage/open-store.ts";

export interface RunningServer {
  url: string;
  /** What a newcomer needs after the "ready" line (server/start-banner.ts). */
  banner: string[];
  /**
   * Stops taking connections, lets the requests in flight and the payout round in progress finish,
   * then closes the chain and the database (docs/decisions/0041).
   */
  close(): Promise<void>;
  /** How long `close` may take before the process stops all the same (SHUTDOWN_TIMEOUT_SECONDS). */
  shutdownTimeoutMs: number;
  /** What `close` is still waiting for: what a shutdown cut short names in its last line. */
  pending(): ShutdownProgress;
}

export interface ShutdownProgress {
  stage: string;
  /** The requests being answered, as "GET /api/books/:id/download". */
  requests: string[];
}

/** Opens and migrates the database, connects the chain, then serves the API and the browser app. */
export async function startServer(config: Config, client: RequestHandler[], { hotReload = false } = {}): Promise<RunningServer> {
  await configureLogger(config.log, config.isProduction);
  const database = await openConfiguredDatabase(config);
  let chain: Awaited<ReturnType<typeof connectChain>> | undefined;
  let store: FileStore | undefined;
  let listening: Server | undefined;
  try {
    await database.migrate();
    chain = await connectChain(config.chain, config.dataDir);
    store = await openFileStore(config);
    const sweptBefore = new Date(Date.now() - config.orphanGraceMs);
    await store.temp.purge(sweptBefore);
    const orphans = await removeOrphanFiles(database.db, store, sweptBefore);
    if (orphans > 0) logger.info({ orphans }, "removed stored files no book points at (left by an interrupted upload or delete)");
    const pmeChain = new PmeChain(chain.settings);
    const mailer = createMailer({ settings: config.mail, outboxDir: join(config.dataDir, "mail") });
    const sessionSecret = resolveSessionSecret(config);
    const { server, serve } = createAppServer();
    listening = server.listen(config.port, config.host);
    hardenHttpServer(server);
    const requests = trackRequests(server);
    let stage = "serving";
    await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
    const { port } = server.address() as AddressInfo;
    // Known only now with PORT=0; the app is given in this same turn, before any request is read.
    const origin = siteOriginOf(config, port);
    const payouts = new PayoutWorker(database.db, pmeChain, {
      policy: config.payoutPolicy,
      onCompleted: (paymentIds) => mailPaymentNotices(database.db, { mailer, origin, productName: config.productName, explorerUrl: chain!.settings.explorerUrl }, paymentIds),
    });
    const { app, close: closeApp, coverQueue, epubQueue } = createApp({
      mailer,
      config,
      origin,
      db: database.db,
      store,
      chain: chain.settings,
      payoutChain: pmeChain,
      sessionSecret,
      onPaymentsOwed: () => payouts.wake(),
      client,
      hotReload,
      requestsInFlight: requests.count,
    });
    serve(app);
    payouts.start();
    return {
      url: listeningOrigin(config.host, port),
      banner: startBanner({
        dataDir: resolve(config.dataDir),
        databaseUrl: config.databaseUrl,
        bucket: config.storage.driver === "s3" ? { name: config.storage.s3.bucket, endpoint: config.storage.s3.endpoint, region: config.storage.s3.region } : undefined,
        accelRedirect: config.storage.driver === "disk" ? config.storage.accelRedirect : undefined,
        smtpUrl: config.mail.smtpUrl,
        localChain: config.chain.kind === "local",
        chain: chain.settings,
        adminEmail: config.adminEmail,
      }),
      shutdownTimeoutMs: config.shutdownTimeoutMs,
      pending: () => ({ stage, requests: requests.inFlight() }),
      async close() {
        stage = "waiting for the requests in flight, the payout round and the cover being drawn";
        // The round in progress is safe to abandon between steps, but finishing it sends no one's payment
        // twice; a cover cut between its files and its row would leave files no book points at.
        await Promise.all([requests.drain(), payouts.stop(), coverQueue.stop(), epubQueue.stop()]);
        stage = "closing the chain and the database";
        // After payouts: a payment completed in the last round still had the mailer for its notice.
        closeApp();
        pmeChain.destroy();
        await chain!.stop();
        store!.close();
        await database.close();
      },
    };
  } catch (error) {
    listening?.close();
    await chain?.stop();
    store?.close();
    await database.close();
    throw error;
  }
}

/**
 * The requests a server is answering: their `count` is what background work yields to
 * (docs/decisions/0073). `drain` stops taking connections (a new one is refused), answers what is in
 * flight (uploads and downloads to their last byte) with `Connection: close`, and resolves once every
 * connection has closed; a keep-alive connection closes as soon as it has nothing in flight.
 */
function trackRequests(server: Server) {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    if (draining) res.shouldKeepAlive = false;
    res.once("close", () => {
      inFlight.delete(res);
      if (draining) server.closeIdleConnections();
    });
  });
  return {
    count: () => inFlight.size,
    inFlight: () => [...inFlight].map((res) => `${res.req.method} ${routePatternOf(res as Response) ?? new URL(res.req.url ?? "/", "http://plume").pathname}`),
    drain: () =>
      new Promise<void>((resolve) => {
        draining = true;
        for (const res of inFlight) res.shouldKeepAlive = false;
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

/**
 * Runs a server until SIGTERM or SIGINT, then stops it gracefully (docs/decisions/0041): exit 0 once
 * everything is closed; exit 1 at once on a second signal or after SHUTDOWN_TIMEOUT_SECONDS, naming what
 * was cut. A bad setting or a busy data folder ends it with one clear line.
 */
export async function runUntilStopped(start: () => Promise<RunningServer>): Promise<void> {
  let running: RunningServer;
  try {
    running = await start();
  } catch (error) {
    const expected = ["ConfigError", "DataDirLockedError"].includes((error as Error).name);
    const listenError = (error as NodeJS.ErrnoException).code === "EADDRINUSE";
    if (expected || listenError) {
      // A plain line, not a log record: the settings that say how to log may be what is wrong.
      console.error(`Plume could not start: ${(error as Error).message}`);
      process.exit(1);
    }
    throw error;
  }
  let stopping = false;
  const cut = (why: string) => {
    logger.error({ cut: running.pending() }, `${why}: stopping at once`);
    process.exit(1);
  };
  // A signal handler's promise is awaited by no one: a close that fails ends the process with 1, as an
  // unhandled rejection would, but with one line that says so.
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return cut(`a second ${signal} during the shutdown`);
    stopping = true;
    logger.info({ signal, requestsInFlight: running.pending().requests.length }, "stopping: no new connections; finishing the requests in flight and the payout round");
    setTimeout(() => cut(`the shutdown took longer than ${running.shutdownTimeoutMs / 1000} s (SHUTDOWN_TIMEOUT_SECONDS)`), running.shutdownTimeoutMs).unref();
    running.close().then(
      () => {
        logger.info("stopped cleanly");
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, "Plume did not stop cleanly");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // Only now: a supervisor that stops the server as soon as it reads this line must find the handlers in place.
  // The banner is for a person starting Plume, printed as it is written rather than as a log record.
  console.log([`Plume is ready on ${running.url}`, ...running.banner].join("\n"));
}
