import { loadConfig } from "../../server/config.ts";
import { serveBuiltClient } from "../../server/http/serve-client.ts";
import { runUntilStopped, startServer } from "../../server/server.ts";

/**
 * The real server with the browser app built into the folder given as its one argument: server/main.ts
 * serves dist/client only, which a benchmark must not overwrite under another run's feet.
 */
const clientFolder = process.argv[2];
if (!clientFolder) throw new Error("Usage: app-server.ts <folder of the built browser app>");
await runUntilStopped(async () => startServer(loadConfig(), serveBuiltClient(clientFolder)));
