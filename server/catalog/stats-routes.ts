import { Router } from "express";
import { readPublicStats } from "../books/books-repository.ts";
import { freshFor } from "./fresh-for.ts";
import type { Db } from "../db/client.ts";

/**
 * The platform's totals change with every upload and counted download, and every visit to the
 * landing page asks for them: they are read at most once per few seconds (docs/decisions/0015).
 */
const PUBLIC_STATS_TTL_MS = 5_000;

export function statsRoutes({ db }: { db: Db }): Router {
  const router = Router();
  const publicStats = freshFor(PUBLIC_STATS_TTL_MS, () => readPublicStats(db));
  router.get("/public", async (_req, res) => {
    res.json(await publicStats());
  });
  return router;
}
