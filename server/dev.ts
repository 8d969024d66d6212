import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { RequestHandler } from "express";
import { createServer as createViteServer } from "vite";
import { loadConfig } from "./config.ts";
import type { PageHead } from "./http/app-page.ts";
import { projectRoot } from "./paths.ts";
import { runUntilStopped, startServer } from "./server.ts";

/** `npm run dev`: the API with Vite's hot-reloading middleware serving the client from source. */
await runUntilStopped(async () => {
  const vite = await createViteServer({
    configFile: join(projectRoot, "vite.config.ts"),
    server: { middlewareMode: true },
    // Not "spa": Vite's own fallback sends the app's page with status 200 whatever the path.
    appType: "custom",
  });
  // The app's page as Vite transforms it, with the status server/pages/page-heads.ts gave the path
  // (404 for a path no screen shows, or a book or author that is not there), as the built app answers.
  const appPage: RequestHandler = async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    try {
      const html = await vite.transformIndexHtml(req.originalUrl, await readFile(join(projectRoot, "client", "index.html"), "utf8"));
      res.status((res.locals.pageHead as PageHead | undefined)?.status ?? 200).type("html").send(html);
    } catch (error) {
      next(error);
    }
  };
  const running = await startServer(loadConfig(), [vite.middlewares as RequestHandler, appPage], { hotReload: true });
  return {
    ...running,
    async close() {
      await vite.close();
      await running.close();
    },
  };
});
