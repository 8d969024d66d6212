import type { PublicStats } from "../../shared/books.ts";
import type { Db } from "../db/client.ts";
import { readPublicStats } from "./catalog-repository.ts";
import { freshFor } from "./fresh-for.ts";

/**
 * The platform's totals change with every upload and counted download, and every visit to the
 * landing page asks for them: they are read at most once per few seconds (docs/decisions/0015).
 */
const PUBLIC_STATS_TTL_MS = 5_000;

/** The platform's totals for the landing page, read at most once per PUBLIC_STATS_TTL_MS. */
export function readPublicStatsFresh(db: Db): () => Promise<PublicStats> {
  return freshFor(PUBLIC_STATS_TTL_MS, () => readPublicStats(db));
}
