import { join } from "node:path";
import type { RequestHandler } from "express";
import { createServer as createViteServer } from "vite";
import { loadConfig } from "./config.ts";
import { projectRoot } from "./paths.ts";
import { runUntilStopped, startServer } from "./server.ts";

/** `npm run dev`: the API with Vite's hot-reloading middleware serving the client from source. */
await runUntilStopped(async () => {
  const vite = await createViteServer({
    configFile: join(projectRoot, "vite.config.ts"),
    server: { middlewareMode: true },
    appType: "spa",
  });
  const running = await startServer(loadConfig(), [vite.middlewares as RequestHandler], { hotReload: true });
  return {
    url: running.url,
    banner: running.banner,
    async close() {
      await vite.close();
      await running.close();
    },
  };
});
