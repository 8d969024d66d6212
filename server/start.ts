import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { buildClient } from "./http/client-build.ts";
import { serveBuiltClient } from "./http/serve-client.ts";
import { clientBuildFolder, projectRoot } from "./paths.ts";
import { runUntilStopped, startServer } from "./server.ts";
import { configureLogger, logger } from "./system/logger.ts";

/** Newest modification time of any file below these folders. */
function newestChange(folders: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    const stats = statSync(path);
    if (stats.isDirectory()) readdirSync(path).forEach((entry) => visit(join(path, entry)));
    else newest = Math.max(newest, stats.mtimeMs);
  };
  folders.filter(existsSync).forEach(visit);
  return newest;
}

/** `npm start`: builds the browser app when it is missing or older than its sources, then serves everything. */
await runUntilStopped(async () => {
  const config = loadConfig();
  await configureLogger(config.log, config.isProduction);
  const builtIndex = join(clientBuildFolder, "index.html");
  const sources = ["client", "shared"].map((folder) => join(projectRoot, folder));
  if (!existsSync(builtIndex) || statSync(builtIndex).mtimeMs < newestChange(sources)) {
    logger.info("Building the browser app…");
    await buildClient();
  }
  return startServer(config, serveBuiltClient(clientBuildFolder));
});
