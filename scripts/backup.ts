import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../server/config.ts";
import { DataDirLockedError } from "../server/db/data-dir-lock.ts";
import { BackupError, createBackup, defaultBackupPath, refuseUnlessEmbedded, restoreBackup } from "../server/system/backup.ts";

/**
 * `npm run backup [-- --out <file>]` and `npm run restore -- <file> [--force]`: the embedded
 * database, uploaded files and session secret as one archive (docs/decisions/0043). The server must
 * be stopped: both hold the data folder's lock.
 */
async function main(command: string | undefined, args: string[]): Promise<string> {
  if (command !== "backup" && command !== "restore") throw new BackupError("Usage: tsx scripts/backup.ts backup|restore …");
  const config = loadConfig();
  refuseUnlessEmbedded(config, command);
  if (command === "backup") {
    const { values } = parseArgs({ args, options: { out: { type: "string" } } });
    const out = values.out ?? defaultBackupPath();
    const { counts, migration } = await createBackup(config.dataDir, out);
    return `Backed up ${config.dataDir} to ${out}: ${counts.users} accounts, ${counts.books} books, ${counts.bookFiles} book files, ${counts.coverFiles} covers (migration ${migration?.tag ?? "none"}).`;
  }
  const { values, positionals } = parseArgs({ args, options: { force: { type: "boolean", default: false } }, allowPositionals: true });
  if (positionals.length !== 1) throw new BackupError("Usage: npm run restore -- <backup file> [--force]");
  const { manifest, movedAside } = await restoreBackup(config.dataDir, positionals[0]!, { force: values.force });
  return (
    `Restored the backup of ${manifest.createdAt} into ${config.dataDir} (${manifest.counts.books} books)` +
    (movedAside ? `; the earlier contents are in ${movedAside}.` : ".") +
    " Migrations newer than the backup run at the next start."
  );
}

const [command, ...args] = process.argv.slice(2);
main(command, args).then(
  (summary) => console.log(summary),
  (error: unknown) => {
    // A mistyped option (parseArgs) is as much the person's to fix as a refused archive.
    const expected =
      [BackupError, ConfigError, DataDirLockedError].some((kind) => error instanceof kind) ||
      String((error as NodeJS.ErrnoException).code).startsWith("ERR_PARSE_ARGS");
    console.error(expected ? `${command ?? "backup"} refused: ${(error as Error).message}` : error);
    process.exitCode = 1;
  },
);
