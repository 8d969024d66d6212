import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import type { RequestHandler } from "express";
import { createApp } from "./app.ts";
import { resolveSessionSecret } from "./accounts/session-secret.ts";
import { removeOrphanFiles } from "./books/orphan-files.ts";
import type { Config } from "./config.ts";
import { connectChain } from "./chain/chain-connection.ts";
import { openConfiguredDatabase } from "./db/open-configured.ts";
import { createAppServer } from "./http/app-server.ts";
import { hardenHttpServer } from "./http/harden-server.ts";
import { startBanner } from "./start-banner.ts";
import { createMailer } from "./mail/mailer.ts";
import { mailPaymentNotices } from "./rewards/payment-notices.ts";
import { PayoutWorker } from "./rewards/payout-worker.ts";
import { PmeChain } from "./chain/pme-chain.ts";
import type { FileStore } from "./storage/file-store.ts";
import { openFileStore } from "./storage/open-store.ts";

export interface RunningServer {
  url: string;
  /** What a newcomer needs after the "ready" line (server/start-banner.ts). */
  banner: string[];
  close(): Promise<void>;
}

/** Opens and migrates the database, connects the chain, then serves the API and the browser app. */
export async function startServer(config: Config, client: RequestHandler[], { hotReload = false } = {}): Promise<RunningServer> {
  const database = await openConfiguredDatabase(config);
  let chain: Awaited<ReturnType<typeof connectChain>> | undefined;
  let store: FileStore | undefined;
  try {
    await database.migrate();
    chain = await connectChain(config.chain, config.dataDir);
    store = await openFileStore(config);
    const sweptBefore = new Date(Date.now() - config.orphanGraceMs);
    await store.temp.purge(sweptBefore);
    const orphans = await removeOrphanFiles(database.db, store, sweptBefore);
    if (orphans > 0) console.log(`Removed ${orphans} stored files no book points at (left by an interrupted upload or delete).`);
    const pmeChain = new PmeChain(chain.settings);
    const mailer = createMailer({ settings: config.mail, outboxDir: join(config.dataDir, "mail") });
    // Known once the server listens (PORT may be 0); payouts start after that.
    let linkOrigin = config.publicOrigin ?? "";
    const noticeMailing = () => ({ mailer, origin: linkOrigin, productName: config.productName, explorerUrl: chain!.settings.explorerUrl });
    const payouts = new PayoutWorker(database.db, pmeChain, {
      policy: config.payoutPolicy,
      onCompleted: (paymentIds) => mailPaymentNotices(database.db, noticeMailing(), paymentIds),
    });
    const { app, close: closeApp } = createApp({
      mailer,
      config,
      db: database.db,
      store,
      chain: chain.settings,
      payoutChain: pmeChain,
      sessionSecret: resolveSessionSecret(config),
      onPaymentsOwed: () => payouts.wake(),
      client,
      hotReload,
    });
    const server = createAppServer(app).listen(config.port, config.host);
    hardenHttpServer(server);
    await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
    const { port } = server.address() as AddressInfo;
    linkOrigin ||= `http://localhost:${port}`;
    payouts.start();
    return {
      url: `http://localhost:${port}`,
      banner: startBanner({
        dataDir: resolve(config.dataDir),
        databaseUrl: config.databaseUrl,
        smtpUrl: config.mail.smtpUrl,
        localChain: config.chain.kind === "local",
        chain: chain.settings,
        adminEmail: config.adminEmail,
      }),
      async close() {
        // Payouts first: a payment completing now still has the mailer for its notice.
        await payouts.stop();
        closeApp();
        pmeChain.destroy();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await chain!.stop();
        store!.close();
        await database.close();
      },
    };
  } catch (error) {
    await chain?.stop();
    store?.close();
    await database.close();
    throw error;
  }
}

/** Runs a server until SIGINT/SIGTERM; a bad setting or a busy data folder ends it with one clear line. */
export async function runUntilStopped(start: () => Promise<RunningServer>): Promise<void> {
  let running: RunningServer;
  try {
    running = await start();
  } catch (error) {
    const expected = ["ConfigError", "DataDirLockedError"].includes((error as Error).name);
    const listenError = (error as NodeJS.ErrnoException).code === "EADDRINUSE";
    if (expected || listenError) {
      console.error(`Plume could not start: ${(error as Error).message}`);
      process.exit(1);
    }
    throw error;
  }
  let stopping = false;
  // A signal handler's promise is awaited by no one: a close that fails ends the process with 1, as an
  // unhandled rejection would, but with one line that says so.
  const stop = () => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`Plume did not stop cleanly: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // Only now: a supervisor that stops the server as soon as it reads this line must find the handlers in place.
  console.log([`Plume is ready on ${running.url}`, ...running.banner].join("\n"));
}
