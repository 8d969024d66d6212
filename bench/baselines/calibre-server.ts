import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { projectRoot } from "../../server/paths.ts";
import { freePort } from "../../test/helpers/free-port.ts";
import type { LoadRequest } from "../lib/load.ts";
import { type ReadyProcess, startReadyProcess } from "../lib/ready-process.ts";

/**
 * calibre's content server as a peer: a library of the same books (metadata only, as calibre's
 * web app lists them) served read-only, queried through the call its web app pages with.
 */

const run = promisify(execFile);
const LIBRARY_SCRIPT = join(projectRoot, "bench", "baselines", "calibre-library.py");
const COMPLETE_MARK = ".plume-bench-complete";

/** A book as calibre stores it: languages are ISO 639-2 ("spa"), genres become tags. */
export interface CalibreBook {
  title: string;
  authors: string[];
  comments: string;
  tags: string[];
  languages: string[];
  timestamp: string;
}

/** One page of a search, as calibre's web app asks for it (its "more books" call). */
export interface CalibreSearch {
  query: string;
  sort: string;
  sortOrder: "asc" | "desc";
  offset: number;
}

export async function calibreVersion(): Promise<string> {
  try {
    const { stdout } = await run("calibre-server", ["--version"]);
    return stdout.trim();
  } catch {
    throw new Error("calibre-server is not installed; the catalog benchmark compares with it (apt-get install -y calibre)");
  }
}

/**
 * The library for these books, built once and kept under `cacheDir` keyed by its content, so a
 * run with the same seed reuses it. calibre commits every book to disk as it adds it, so it is
 * built in memory (/dev/shm) and copied over: 10,000 books take seconds instead of minutes.
 */
export async function calibreLibrary(books: CalibreBook[], cacheDir: string): Promise<{ folder: string; buildMs: number | null }> {
  const key = createHash("sha256").update(JSON.stringify(books)).digest("hex").slice(0, 16);
  const folder = join(cacheDir, `calibre-${key}`);
  if (existsSync(join(folder, COMPLETE_MARK))) return { folder, buildMs: null };

  const started = performance.now();
  const scratch = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "plume-calibre-"));
  try {
    const booksFile = join(scratch, "books.json");
    const library = join(scratch, "library");
    writeFileSync(booksFile, JSON.stringify(books));
    mkdirSync(library);
    await run("calibre-debug", ["-e", LIBRARY_SCRIPT, "--", booksFile, library], { maxBuffer: 16 * 1024 * 1024 });
    rmSync(folder, { recursive: true, force: true });
    cpSync(library, folder, { recursive: true });
    writeFileSync(join(folder, COMPLETE_MARK), `${books.length} books\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { folder, buildMs: Math.round(performance.now() - started) };
}

/** calibre-server on the library, as installed (its own worker threads and defaults), local writes off. */
export async function startCalibreServer(folder: string, logFile: string): Promise<ReadyProcess> {
  const port = await freePort();
  return startReadyProcess({
    name: "calibre-server",
    command: "calibre-server",
    args: ["--port", String(port), "--listen-on", "127.0.0.1", "--disable-use-bonjour", "--disable-local-write", folder],
    // calibre allows one calibre program per user, to keep two writers off one library. Each
    // benchmark serves a library of its own, read-only, and two benchmarks may run at once.
    env: { CALIBRE_NO_SI_DANGER_DANGER: "1" },
    cwd: projectRoot,
    readyLine: /calibre server listening on [\d.]+:(\d+)/,
    logFile,
  });
}

/** The request calibre's web app makes for a page of results: ids and metadata of `pageSize` books. */
export function calibreSearchRequest(serverUrl: string, search: CalibreSearch, pageSize: number): LoadRequest {
  return {
    url: `${serverUrl}/interface-data/more-books?num=${pageSize}`,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ query: search.query, offset: search.offset, sort: search.sort, sort_order: search.sortOrder, vl: "" }),
  };
}
