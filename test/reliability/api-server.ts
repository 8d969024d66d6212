import { loadConfig } from "../../server/config.ts";
import { runUntilStopped, startServer } from "../../server/server.ts";

/** The real server (API and payout worker) without the browser app: the process the crash harness starts and kills. */
await runUntilStopped(async () => startServer(loadConfig(), []));
