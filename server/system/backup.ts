import { type Stats, createReadStream, existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rename, rm, stat, statfs, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar";
import { BOOK_FILE_MAX_BYTES, COVER_MAX_BYTES } from "../../shared/books.ts";
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

/**
 * How much a restore unpacks at most (docs/decisions/0053): an archive is checked against these
 * before anything is written, and refused whole.
 */
export interface RestoreLimits {
  /** Entries in the archive: five files for each of 200,000 books is already past what the embedded database is for. */
  members: number;
  /** Bytes unpacked from the archive, as a multiple of its own size, plus `inflationFloorBytes`: books and covers barely compress, a fresh database 8.5 times. */
  inflationRatio: number;
  inflationFloorBytes: number;
  /** The database dump, which is read whole into memory, as `npm run backup` wrote it. */
  databaseDumpBytes: number;
  /** Files in the database dump: a fresh database has 1,100. */
  databaseDumpMembers: number;
  /** Free space the disk must keep once everything is unpacked beside DATA_DIR. */
  reserveBytes: number;
}

const MEBIBYTE = 1024 * 1024;

export const RESTORE_LIMITS: RestoreLimits = {
  members: 1_000_000,
  inflationRatio: 50,
  inflationFloorBytes: 256 * MEBIBYTE,
  // Node's readFile stops at 2 GiB, so no larger dump was ever restorable.
  databaseDumpBytes: 2 * 1024 * MEBIBYTE,
  databaseDumpMembers: 100_000,
  reserveBytes: 256 * MEBIBYTE,
};

/** The largest each entry may be: what Plume itself writes, never more. */
function sizeLimitOf(path: string, limits: RestoreLimits): number {
  if (path === DATABASE_DUMP) return limits.databaseDumpBytes;
  if (path === MANIFEST) return 64 * 1024;
  if (path === SESSION_SECRET) return 1024;
  return dirname(path) === STORED_FOLDERS[0] ? BOOK_FILE_MAX_BYTES : COVER_MAX_BYTES;
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

/** What a checked archive holds: its manifest and database dump, read into memory, and the bytes its files take. */
interface CheckedArchive {
  manifest: BackupManifest;
  dump: Buffer;
  bytes: number;
}

/** Counts the bytes gunzip gives and stops the stream past `max`: a decompression bomb is cut, not unpacked. */
function inflatedAtMost(max: number, file: string): Transform {
  let inflated = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      inflated += chunk.length;
      if (inflated > max) return done(new BackupError(`${file} unpacks to more than ${Math.round(max / MEBIBYTE)} MiB, far more than a Plume backup of its size: it is refused whole.`));
      done(null, chunk);
    },
  });
}

/**
 * Reads the whole archive once, writing nothing: every entry's name, type and size, their number,
 * the bytes gunzip gives, the manifest and the database dump. Anything wrong refuses the archive
 * before DATA_DIR is locked or a folder made; a zlib or tar error is one line like the others.
 */
async function checkArchive(file: string, limits: RestoreLimits): Promise<CheckedArchive> {
  const archiveBytes = (await stat(file)).size;
  let members = 0;
  let bytes = 0;
  const kept = new Map<string, Buffer[]>();
  let refusal: BackupError | undefined;
  const parser = new tar.Parser({
    // Warnings (a bad header, a truncated entry) are errors here: an archive that needs mending is not one Plume wrote.
    strict: true,
    onReadEntry: (entry) => {
      const path = entry.path.replace(/\/$/, "");
      members += 1;
      bytes += entry.size;
      if (!isExpectedEntry(entry.path, entry.type)) {
        refusal ??= new BackupError(`${file} holds entries a Plume backup never has (${entry.path}); nothing was restored.`);
      } else if (members > limits.members) {
        refusal ??= new BackupError(`${file} holds more than ${limits.members} entries, more than a Plume backup has; nothing was restored.`);
      } else if (entry.type !== "Directory" && entry.size > sizeLimitOf(path, limits)) {
        refusal ??= new BackupError(`${file} holds ${entry.path} of ${entry.size} bytes, larger than Plume ever stores it; nothing was restored.`);
      }
      if (refusal) {
        parser.abort(refusal);
        return;
      }
      if (path !== MANIFEST && path !== DATABASE_DUMP) return entry.resume();
      const chunks: Buffer[] = [];
      kept.set(path, chunks);
      entry.on("data", (chunk: Buffer) => chunks.push(chunk));
    },
  });
  try {
    await pipeline(createReadStream(file), createGunzip(), inflatedAtMost(archiveBytes * limits.inflationRatio + limits.inflationFloorBytes, file), parser);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a readable Plume backup (${(error as Error).message}).`);
  }
  if (refusal) throw refusal;
  const manifest = parseManifest(kept.get(MANIFEST), file);
  const dump = kept.get(DATABASE_DUMP);
  if (!dump) throw new BackupError(`${file} has no ${DATABASE_DUMP}.`);
  const dumpBytes = Buffer.concat(dump);
  checkDatabaseDump(dumpBytes, file, limits);
  return { manifest, dump: dumpBytes, bytes };
}

/** The ustar magic tinytar (PGlite's tar reader) takes, with its old GNU form. */
const USTAR_MAGICS = new Set(["ustar\u000000", "ustar  \u0000"]);
const TAR_BLOCK = 512;
const tarField = (header: Buffer, start: number, length: number) => header.toString("latin1", start, start + length).replace(/\0.*$/s, "");

/**
 * PGlite's dump is an uncompressed tar of its data folder, which PGlite unpacks into it with a reader
 * of its own that knows files and folders only, and that, reading what is not a tar, tries it as gzip
 * and crashes the process with an error no one can catch. Only what that reader reads cleanly gets to
 * it: files and folders with a valid header, no name that leaves the folder, within the limits.
 */
function checkDatabaseDump(dump: Buffer, file: string, limits: RestoreLimits): void {
  const refuse = (why: string) => new BackupError(`${file} holds a ${DATABASE_DUMP} that is not a Plume database dump (${why}); nothing was restored.`);
  let offset = 0;
  let members = 0;
  for (;;) {
    if (offset + TAR_BLOCK > dump.length) throw refuse("it ends before its last entry");
    const header = dump.subarray(offset, offset + TAR_BLOCK);
    if (header.every((byte) => byte === 0)) return;
    members += 1;
    if (members > limits.databaseDumpMembers) throw refuse(`more than ${limits.databaseDumpMembers} files`);
    if (!USTAR_MAGICS.has(header.toString("latin1", 257, 265))) throw refuse("not a tar file");
    let checksum = 0;
    for (let index = 0; index < TAR_BLOCK; index += 1) checksum += index >= 148 && index < 156 ? 32 : header[index]!;
    if (Number.parseInt(tarField(header, 148, 8), 8) !== checksum) throw refuse("a damaged header");
    const type = String.fromCharCode(header[156]!);
    const name = tarField(header, 0, 100);
    if (!["0", "\0", "5"].includes(type)) throw refuse(`${name} is neither a file nor a folder`);
    if (name.split("/").some((segment) => segment === ".." || segment === ".")) throw refuse(`${name} leaves the database folder`);
    const size = type === "5" ? 0 : Number.parseInt(tarField(header, 124, 12), 8);
    if (!Number.isSafeInteger(size) || size < 0) throw refuse(`${name} has no readable size`);
    offset += TAR_BLOCK + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
  }
}

/** Writes the files of a checked archive; the manifest and the dump stay in memory, read once. */
async function extractFiles(file: string, into: string, limits: RestoreLimits): Promise<void> {
  // The checks again, as the file could have changed since it was read; and run as root, node-tar
  // would otherwise give the files the owner the archive names.
  const filter = (path: string, entry: tar.ReadEntry | Stats) => {
    const type = "type" in entry ? entry.type : "File";
    const name = path.replace(/\/$/, "");
    if (name === MANIFEST || name === DATABASE_DUMP || !isExpectedEntry(path, type)) return false;
    return type === "Directory" || entry.size <= sizeLimitOf(name, limits);
  };
  await tar.x({ file, cwd: into, strict: true, filter, preserveOwner: false });
}

function parseManifest(chunks: Buffer[] | undefined, file: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(Buffer.concat(chunks ?? []).toString("utf8")) as BackupManifest;
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
  return manifest;
}

/** Refuses an archive whose files would leave the disk under `reserveBytes` free. */
async function checkFreeSpace(folder: string, bytes: number, file: string, limits: RestoreLimits): Promise<void> {
  // DATA_DIR's parent is made by the restore when missing: the disk is the one of its nearest existing ancestor.
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  const { bavail, bsize } = await statfs(folder);
  const free = bavail * bsize;
  if (bytes + limits.reserveBytes > free) {
    throw new BackupError(
      `${file} unpacks to ${Math.ceil(bytes / MEBIBYTE)} MiB and ${folder} has ${Math.floor(free / MEBIBYTE)} MiB free, of which ${Math.round(limits.reserveBytes / MEBIBYTE)} MiB must stay free; nothing was restored.`,
    );
  }
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the data folder's earlier contents were moved, or null when there were none. */
  movedAside: string | null;
}

/**
 * Restores an archive of createBackup into DATA_DIR. The whole archive is checked first, writing
 * nothing (checkArchive, then the free space); then everything is unpacked and the database opened
 * in a folder beside DATA_DIR, and only then renamed into place: a bad archive leaves DATA_DIR as it
 * was and no folder behind. A folder that holds a database is refused unless `force`, and even then
 * moved aside.
 */
export async function restoreBackup(
  dataDir: string,
  file: string,
  options: { force?: boolean; now?: Date; limits?: RestoreLimits } = {},
): Promise<RestoreResult> {
  const stamp = stampOf(options.now ?? new Date());
  const limits = options.limits ?? RESTORE_LIMITS;
  if (!existsSync(file) || !(await stat(file)).isFile()) throw new BackupError(`There is no backup file ${file}.`);
  const target = resolve(dataDir);
  if (hasDatabase(target) && !options.force) {
    throw new BackupError(`${dataDir} already holds a database: add --force to move it aside to ${dataDir}.before-restore-${stamp} and restore over it.`);
  }
  const { manifest, dump, bytes } = await checkArchive(file, limits);
  await checkFreeSpace(dirname(target), bytes, file, limits);
  const unlock = lockDataDir(target);
  // Beside DATA_DIR, so that the final rename stays on one file system.
  const staging = `${target}.restoring-${stamp}`;
  let movedAside: string | null = null;
  try {
    await mkdir(staging);
    await extractFiles(file, staging, limits);
    try {
      const database = await openDatabase({ kind: "pglite", dataDir: staging, startFrom: new Blob([dump as Uint8Array<ArrayBuffer>]) });
      await database.close();
    } catch (error) {
      throw new BackupError(`${file} holds a database this Plume cannot open (${(error as Error).message}).`);
    }
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
