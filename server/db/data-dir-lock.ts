import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatMark, isStillRunning, markOf, parseMark } from "../system/processes.ts";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

/**
 * Takes the data folder for this process. The embedded database has a single connection,
 * so a second server on the same folder would corrupt it: it is refused with a clear message.
 * The lock names its holder by pid *and start time*, so a lock left by a process that died is
 * taken over at once, even while the dead process is still a zombie or after its pid went to
 * another process (the next server's own chain, say): a crash never blocks the next start.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, "plume.lock");
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(lockPath, formatMark(markOf(process.pid)), { flag: "wx" });
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = parseMark(readFileSync(lockPath, "utf8"));
      if (holder && holder.pid !== process.pid && isStillRunning(holder)) {
        throw new DataDirLockedError(
          `The data folder ${dataDir} is in use by another Plume server (process ${holder.pid}). ` +
            "Stop it first, or give this one its own DATA_DIR.",
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not take the lock ${lockPath}`);
}
