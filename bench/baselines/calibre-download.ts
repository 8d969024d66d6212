import { execFile } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { projectRoot } from "../../server/paths.ts";

/** calibre's content server as the peer of a download: one book file in a library of its own. */

const run = promisify(execFile);
const ADD_FILE_SCRIPT = join(projectRoot, "bench", "baselines", "calibre-add-file.py");

/** Makes `folder` a fresh calibre library holding `file` as calibre files it (its own copy); the book's id. */
export async function calibreLibraryWithBook(file: string, folder: string): Promise<number> {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const { stdout } = await run("calibre-debug", ["-e", ADD_FILE_SCRIPT, "--", file, folder]);
  const added = /Added book ids: (\d+)/.exec(stdout);
  if (!added) throw new Error(`calibre did not add ${file}: ${stdout.trim()}`);
  return Number(added[1]);
}

/** Where calibre's web app downloads a book's file: /get/<format>/<book id>/<library id>. */
export async function calibreDownloadUrl(serverUrl: string, bookId: number, format: string): Promise<string> {
  const response = await fetch(`${serverUrl}/ajax/library-info`);
  if (!response.ok) throw new Error(`calibre-server's library info answered ${response.status}`);
  const { default_library: libraryId } = (await response.json()) as { default_library: string };
  return `${serverUrl}/get/${format}/${bookId}/${encodeURIComponent(libraryId)}`;
}
