import { loadConfig } from "./config.ts";
import { serveBuiltClient } from "./http/serve-client.ts";
import { clientBuildFolder } from "./paths.ts";
import { runUntilStopped, startServer } from "./server.ts";

/** Production entry (bundled to dist/server/main.js): serves the already-built client. */
await runUntilStopped(async () => startServer(loadConfig(), serveBuiltClient(clientBuildFolder)));
