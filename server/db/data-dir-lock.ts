import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

/** Whether a process of this machine is alive (a dead one's locks and leases can be taken over). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the data folder for this process. The embedded database has a single connection,
 * so a second server on the same folder would corrupt it: it is refused with a clear message.
 * A lock left by a process that died is taken over, so a crash never blocks the next start.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, "plume.lock");
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(readFileSync(lockPath, "utf8"), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isProcessRunning(holder)) {
        throw new DataDirLockedError(
          `The data folder ${dataDir} is in use by another Plume server (process ${holder}). ` +
            "Stop it first, or give this one its own DATA_DIR.",
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not take the lock ${lockPath}`);
}
