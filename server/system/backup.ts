import { type Stats, existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import * as tar from "tar";
import type { Config } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { lockDataDir } from "../db/data-dir-lock.ts";
import { type MigrationLevel, committedMigrations, newestAppliedMigrationMillis, newestCommittedMigration } from "../db/migration-journal.ts";
import { books, users } from "../db/schema.ts";

/** Raised for what the person running the command can fix: printed as one line, exit 1. */
export class BackupError extends Error {
  override name = "BackupError";
}

/** Bumped when the archive's layout changes in a way an older restore could not read. */
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupManifest {
  formatVersion: number;
  createdAt: string;
  storageDriver: "disk";
  database: "pglite-data-dir";
  migration: MigrationLevel | null;
  counts: { users: number; books: number; bookFiles: number; coverFiles: number };
}

const MANIFEST = "manifest.json";
const DATABASE_DUMP = "database.tar";
const SESSION_SECRET = "session-secret";
const STORED_FOLDERS = ["uploads/books", "uploads/covers"] as const;

/**
 * Production keeps its data in PostgreSQL and a bucket, which have their own backups; a copy of
 * DATA_DIR would miss all of it and look like a backup all the same (docs/decisions/0043).
 */
export function refuseUnlessEmbedded(config: Pick<Config, "databaseUrl" | "storage">, command: "backup" | "restore"): void {
  const external = [config.databaseUrl && "DATABASE_URL is set", config.storage.driver === "s3" && "STORAGE=s3"].filter(Boolean);
  if (external.length === 0) return;
  throw new BackupError(
    `npm run ${command} is for the embedded database and files on disk only (${external.join(", ")}): ` +
      "back up PostgreSQL with pg_dump and point-in-time recovery, and the bucket with versioning or replication; see docs/deploy.md.",
  );
}

const hasDatabase = (dataDir: string) => existsSync(join(dataDir, "pglite", "PG_VERSION"));

/** `plume-20261126T162240Z.tar.gz`: sorts by time, and has no colon for file systems that refuse one. */
export function defaultBackupPath(now = new Date()): string {
  return join("backups", `plume-${stampOf(now)}.tar.gz`);
}

const stampOf = (now: Date) => now.toISOString().replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");

async function fileCount(folder: string): Promise<number> {
  return (await readdir(folder).catch(() => [])).length;
}

/**
 * Writes one .tar.gz of the embedded database's data folder (PGlite's own dump), the stored books
 * and covers and the session secret, with a manifest. The database stays open, and so the data
 * folder locked, until the archive is written: it is refused while a server runs, and no upload or
 * deletion happens under it. The archive appears under its name only once it is whole.
 */
export async function createBackup(dataDir: string, outFile: string, now = new Date()): Promise<BackupManifest> {
  // Opening a folder without one would make an empty database, and back that up.
  if (!hasDatabase(dataDir)) throw new BackupError(`There is no database in ${dataDir} to back up.`);
  const database = await openDatabase({ kind: "pglite", dataDir });
  const stage = await mkdtemp(join(tmpdir(), "plume-backup-"));
  const partial = `${outFile}.partial`;
  try {
    const [userCount, bookCount, applied] = await Promise.all([
      database.db.$count(users),
      database.db.$count(books),
      newestAppliedMigrationMillis(database.db),
    ]);
    const manifest: BackupManifest = {
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: now.toISOString(),
      storageDriver: "disk",
      database: "pglite-data-dir",
      migration: committedMigrations().find((entry) => entry.when === applied) ?? null,
      counts: {
        users: userCount,
        books: bookCount,
        bookFiles: await fileCount(join(dataDir, STORED_FOLDERS[0])),
        coverFiles: await fileCount(join(dataDir, STORED_FOLDERS[1])),
      },
    };
    await writeFile(join(stage, DATABASE_DUMP), Buffer.from(await (await database.dumpDataDir!()).arrayBuffer()));
    await writeFile(join(stage, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    // The manifest and dump come from the staging folder, the rest from the data folder: node-tar
    // packs from one folder, and adds a whole archive's entries from a path starting with @.
    const staged = join(stage, "staged.tar");
    await tar.c({ cwd: stage, file: staged, portable: true }, [MANIFEST, DATABASE_DUMP]);
    const fromDataDir = [SESSION_SECRET, ...STORED_FOLDERS].filter((path) => existsSync(join(dataDir, path)));
    await mkdir(dirname(resolve(outFile)), { recursive: true });
    await tar.c({ cwd: dataDir, file: partial, gzip: true, portable: true }, [`@${staged}`, ...fromDataDir]);
    await rename(partial, outFile);
    return manifest;
  } finally {
    await rm(partial, { force: true });
    await rm(stage, { recursive: true, force: true });
    await database.close();
  }
}

/** The only entries a Plume archive holds; anything else (a link, a device, another path) refuses it. */
function isExpectedEntry(path: string, type: string): boolean {
  const normalized = path.replace(/\/$/, "");
  if (type === "Directory") return ["uploads", ...STORED_FOLDERS].includes(normalized);
  if (type !== "File" && type !== "OldFile") return false;
  if ([MANIFEST, DATABASE_DUMP, SESSION_SECRET].includes(normalized)) return true;
  const folder = dirname(normalized);
  return (STORED_FOLDERS as readonly string[]).includes(folder) && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(basename(normalized));
}

/**
 * Reads the whole archive once without writing anything, then unpacks it. A truncated or foreign
 * archive fails while node-tar is writing files, and its writes still in flight would land after
 * the temporary folder was removed; read first, such an archive is refused before the first byte.
 */
async function extractArchive(file: string, into: string): Promise<void> {
  const refused: string[] = [];
  const filter = (path: string, entry: tar.ReadEntry | Stats) => isExpectedEntry(path, "type" in entry ? entry.type : "File");
  try {
    await tar.t({
      file,
      // Warnings (an absolute path made relative, a `..` skipped, a bad header) are errors here:
      // an archive that needs mending is not one Plume wrote.
      strict: true,
      filter: (path, entry) => {
        if (!filter(path, entry)) refused.push(path);
        return false;
      },
    });
  } catch (error) {
    throw new BackupError(`${file} is not a readable Plume backup (${(error as Error).message}).`);
  }
  if (refused.length > 0) throw new BackupError(`${file} holds entries a Plume backup never has (${refused.slice(0, 3).join(", ")}); nothing was restored.`);
  // The filter again, as the file could have changed since it was read; and run as root, node-tar
  // would otherwise give the files the owner the archive names.
  await tar.x({ file, cwd: into, strict: true, filter, preserveOwner: false });
}

async function readManifest(folder: string, file: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(join(folder, MANIFEST), "utf8")) as BackupManifest;
  } catch {
    throw new BackupError(`${file} has no readable ${MANIFEST}: it is not a Plume backup.`);
  }
  if (manifest.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new BackupError(`${file} is a backup of format ${manifest.formatVersion}; this Plume reads format ${BACKUP_FORMAT_VERSION}.`);
  }
  const known = newestCommittedMigration();
  if (manifest.migration && manifest.migration.when > known.when) {
    throw new BackupError(
      `${file} comes from a newer Plume (migration ${manifest.migration.tag}; this code knows up to ${known.tag}): restore it with that version.`,
    );
  }
  if (!existsSync(join(folder, DATABASE_DUMP))) throw new BackupError(`${file} has no ${DATABASE_DUMP}.`);
  return manifest;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the data folder's earlier contents were moved, or null when there were none. */
  movedAside: string | null;
}

/**
 * Restores an archive of createBackup into DATA_DIR. Everything is unpacked and the database opened
 * in a folder beside DATA_DIR first, and only then renamed into place: a bad archive leaves DATA_DIR
 * as it was. A folder that holds a database is refused unless `force`, and even then moved aside.
 */
export async function restoreBackup(dataDir: string, file: string, options: { force?: boolean; now?: Date } = {}): Promise<RestoreResult> {
  const stamp = stampOf(options.now ?? new Date());
  if (!existsSync(file) || !(await stat(file)).isFile()) throw new BackupError(`There is no backup file ${file}.`);
  const target = resolve(dataDir);
  if (hasDatabase(target) && !options.force) {
    throw new BackupError(`${dataDir} already holds a database: add --force to move it aside to ${dataDir}.before-restore-${stamp} and restore over it.`);
  }
  const unlock = lockDataDir(target);
  // Beside DATA_DIR, so that the final rename stays on one file system.
  const staging = `${target}.restoring-${stamp}`;
  let movedAside: string | null = null;
  try {
    await mkdir(staging);
    await extractArchive(file, staging);
    const manifest = await readManifest(staging, file);
    const dump = await readFile(join(staging, DATABASE_DUMP));
    try {
      const database = await openDatabase({ kind: "pglite", dataDir: staging, startFrom: new Blob([dump]) });
      await database.close();
    } catch (error) {
      throw new BackupError(`${file} holds a database this Plume cannot open (${(error as Error).message}).`);
    }
    await Promise.all([MANIFEST, DATABASE_DUMP].map((name) => rm(join(staging, name))));
    await mkdir(join(staging, "uploads", "tmp"), { recursive: true });

    const earlier = (await readdir(target)).filter((name) => name !== "plume.lock");
    if (earlier.length > 0) {
      movedAside = `${target}.before-restore-${stamp}`;
      await rename(target, movedAside);
      // The lock travelled with the folder it was taken on.
      await rm(join(movedAside, "plume.lock"), { force: true });
    } else {
      await rm(target, { recursive: true });
    }
    await rename(staging, target);
    return { manifest, movedAside };
  } finally {
    // Retried: a failed unpack may still be closing its last files.
    await rm(staging, { recursive: true, force: true, maxRetries: 5 });
    // After the swap the lock went aside with the old folder (or with it, removed): this is then a no-op.
    unlock();
  }
}
