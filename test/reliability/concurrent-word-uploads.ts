import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fixture } from "../helpers/book-fixtures.ts";
import { PlumeApi, type Session, type UploadFile } from "./plume-api.ts";
import { ServerProcess, throwawayServerSettings } from "./server-process.ts";

/** The Word fixtures, uploaded in turn: each gets Plume's typographic cover, drawn at its upload. */
const WORD_FILES: UploadFile[] = [
  { name: "book.docx", bytes: readFileSync(fixture("book.docx")), type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
  { name: "book.doc", bytes: readFileSync(fixture("book.doc")), type: "application/msword" },
];
/** A cover failed at upload is drawn again by the cover queue: the time it is given. */
const COVER_WAIT_MS = 30_000;

export interface ConcurrentUploadsReport {
  uploads: number;
  /** Every way the run broke a rule: a failed upload, the server gone, a book without its cover. */
  violations: string[];
  /** Each round's time, from the first upload sent to the last answer. */
  roundMs: number[];
}

/**
 * `authors` authors each upload a Word book (DOCX and DOC in turn) at the same instant, `rounds` times,
 * to the real server in a process of its own (docs/decisions/0052-cover-drawing-apart-from-the-server.md):
 * every upload must answer 201, the process must still be running after each round and must never have
 * loaded the canvas library, and every book must end with a stored WebP cover.
 */
export async function concurrentWordUploadsRun(
  { authors, rounds }: { authors: number; rounds: number },
  log: (line: string) => void = () => {},
): Promise<ConcurrentUploadsReport> {
  const dataDir = mkdtempSync(join(tmpdir(), "plume-word-uploads-"));
  let output = "";
  const server = await ServerProcess.start(
    await throwawayServerSettings(dataDir),
    (text) => (output = (output + text).slice(-4_000)),
  );
  const api = new PlumeApi(() => server.url);
  const report: ConcurrentUploadsReport = { uploads: 0, violations: [], roundMs: [] };
  const bookIds: number[] = [];
  try {
    const sessions: Session[] = [];
    for (let index = 0; index < authors; index += 1) {
      sessions.push(await api.register({ username: `word_author_${index}`, email: `word${index}@uploads.test`, password: "word-uploads-pass" }));
    }
    for (let round = 0; round < rounds && server.running; round += 1) {
      const started = Date.now();
      const answers = await Promise.allSettled(
        sessions.map((session, index) => api.uploadBook(session, { title: `Round ${round} book ${index}`, file: WORD_FILES[(round + index) % WORD_FILES.length]!, cover: null })),
      );
      report.roundMs.push(Date.now() - started);
      report.uploads += answers.length;
      for (const answer of answers) {
        if (answer.status === "fulfilled") bookIds.push(answer.value);
        else report.violations.push(`round ${round}: ${(answer.reason as Error).message}`);
      }
      // A process that crashed may not have been reaped yet when the last refused answer came.
      await Promise.race([server.exited, delay(200)]);
      if (!server.running) report.violations.push(`round ${round}: the server process ended: ${output.trim().split("\n").slice(-2).join(" | ")}`);
      log(`round ${round + 1}/${rounds}: ${answers.filter((answer) => answer.status === "fulfilled").length}/${answers.length} uploads in ${report.roundMs.at(-1)} ms`);
    }
    if (server.running && loadedCanvas(server.pid)) report.violations.push("the server process loaded @napi-rs/canvas: covers are drawn in its process");
    if (server.running) report.violations.push(...(await coversMissing(api, bookIds)));
    const stopped = await server.stop();
    if (stopped) report.violations.push(`the server did not stop cleanly: ${stopped}`);
  } finally {
    await server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
}

/** Whether the process has the canvas library's native code mapped (Linux's /proc; elsewhere, not checked). */
function loadedCanvas(pid: number): boolean {
  const maps = `/proc/${pid}/maps`;
  return existsSync(maps) && readFileSync(maps, "utf8").includes("@napi-rs/canvas");
}

/** The books that have no stored WebP cover once the cover queue had its time. */
async function coversMissing(api: PlumeApi, bookIds: number[]): Promise<string[]> {
  const deadline = Date.now() + COVER_WAIT_MS;
  const missing: string[] = [];
  for (const bookId of bookIds) {
    let cover = await api.coverOf(bookId);
    while (cover === null && Date.now() < deadline) {
      await delay(200);
      cover = await api.coverOf(bookId);
    }
    if (cover === null) {
      missing.push(`book ${bookId} has no cover`);
      continue;
    }
    const file = await api.fetchFile(cover);
    if (file.status !== 200 || file.type !== "image/webp" || file.bytes === 0) missing.push(`book ${bookId}'s cover ${cover} answered ${file.status} ${file.type} (${file.bytes} bytes)`);
  }
  return missing;
}
