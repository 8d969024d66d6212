import { Router } from "express";
import { readPublicStats } from "../../../books/books-repository.ts";
import type { Db } from "../../../db/client.ts";

export function statsRoutes({ db }: { db: Db }): Router {
  const router = Router();
  router.get("/public", async (_req, res) => {
    res.json(await readPublicStats(db));
  });
  return router;
}
