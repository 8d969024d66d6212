import { execFile, spawn } from "node:child_process";
import { createWriteStream, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { gzipSync, createGzip } from "node:zlib";
import { eq } from "drizzle-orm";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGLITE_TEMPLATE_VARIABLE } from "../../test/helpers/pglite-template.ts";
import { resolveSessionSecret } from "../accounts/session-secret.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { newestCommittedMigration } from "../db/migration-journal.ts";
import { books, users } from "../db/schema.ts";
import { projectRoot } from "../paths.ts";
import { DiskStore } from "../storage/disk-store.ts";
import { formatMark, markOf } from "./processes.ts";
import { BackupError, RESTORE_LIMITS, type RestoreLimits, createBackup, refuseUnlessEmbedded, restoreBackup } from "./backup.ts";

const BOOK_BYTES = Buffer.from("%PDF-1.4 a book that must come back byte for byte \u0000\u00ff");
const COVER_BYTES = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0, 255]);

/** Every file under a folder with its size: what "left untouched" is checked against. */
function listing(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => `${relative(folder, path)} ${statSync(path).isFile() ? statSync(path).size : "dir"}`)
    .sort();
}

/** Each command is a fresh tsx process (seconds to start on a busy machine), several to a test. */
const COMMAND_RUNS_TIMEOUT_MS = 120_000;
const runCli = (args: string[], env: Record<string, string>) =>
  promisify(execFile)(process.execPath, ["--import", "tsx", join(projectRoot, "scripts", "backup.ts"), ...args], {
    cwd: projectRoot,
    env: { ...process.env, NODE_ENV: "test", ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

/** A data folder made by the real code: a migrated database with an account and a book, its files kept by DiskStore. */
async function makeDataDir(root: string) {
  const dataDir = join(root, "data");
  const template = readFileSync(process.env[PGLITE_TEMPLATE_VARIABLE]!);
  const database = await openDatabase({ kind: "pglite", dataDir, startFrom: new Blob([template]) });
  try {
    await database.migrate();
    const store = new DiskStore(join(dataDir, "uploads"));
    await store.write("books", "0b7c6f0e-1111-4a4a-8888-000000000001.pdf", BOOK_BYTES);
    await store.write("covers", "0b7c6f0e-1111-4a4a-8888-000000000002.jpg", COVER_BYTES);
    writeFileSync(join(dataDir, "uploads", "tmp", "upload-in-flight"), "never backed up");
    const [author] = await database.db.insert(users).values({ username: "ada", password: "x", email: "ada@example.org" }).returning();
    await database.db.insert(books).values({
      title: "Mañana",
      authorId: author!.id,
      fileName: "book.pdf",
      filePath: "0b7c6f0e-1111-4a4a-8888-000000000001.pdf",
      fileSize: BOOK_BYTES.length,
      mimeType: "application/pdf",
      coverImageUrl: "0b7c6f0e-1111-4a4a-8888-000000000002.jpg",
    });
  } finally {
    await database.close();
  }
  const sessionSecret = resolveSessionSecret(loadConfig({ DATA_DIR: dataDir }));
  return { dataDir, sessionSecret };
}

describe.skipIf(process.env.PLUME_TEST_BACKEND === "postgres")("npm run backup and npm run restore", () => {
  let root: string;
  let dataDir: string;
  let sessionSecret: string;
  let archive: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "plume-backup-test-"));
    ({ dataDir, sessionSecret } = await makeDataDir(root));
    archive = join(root, "backups", "plume.tar.gz");
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("backs up and restores the rows, the stored files byte for byte and the session secret", async () => {
    const manifest = await createBackup(dataDir, archive);
    expect(manifest).toMatchObject({
      formatVersion: 1,
      storageDriver: "disk",
      migration: newestCommittedMigration(),
      counts: { users: 1, books: 1, bookFiles: 1, coverFiles: 1 },
    });
    expect(existsSync(`${archive}.partial`)).toBe(false);
    expect(existsSync(join(dataDir, "plume.lock"))).toBe(false);

    rmSync(dataDir, { recursive: true });
    const { movedAside } = await restoreBackup(dataDir, archive);
    expect(movedAside).toBeNull();
    expect(readdirSync(root).filter((name) => name.startsWith("data."))).toEqual([]);

    const database = await openDatabase({ kind: "pglite", dataDir });
    try {
      await database.migrate();
      const [book] = await database.db.select().from(books).innerJoin(users, eq(books.authorId, users.id));
      expect(book).toMatchObject({ books: { title: "Mañana" }, users: { username: "ada" } });
    } finally {
      await database.close();
    }
    const store = new DiskStore(join(dataDir, "uploads"));
    expect(readFileSync(store.pathOf("books", "0b7c6f0e-1111-4a4a-8888-000000000001.pdf"))).toEqual(BOOK_BYTES);
    expect(readFileSync(store.pathOf("covers", "0b7c6f0e-1111-4a4a-8888-000000000002.jpg"))).toEqual(COVER_BYTES);
    expect(readdirSync(join(dataDir, "uploads", "tmp"))).toEqual([]);
    expect(resolveSessionSecret(loadConfig({ DATA_DIR: dataDir }))).toBe(sessionSecret);
    expect(statSync(join(dataDir, "session-secret")).mode & 0o777).toBe(0o600);
  });

  it("refuses with external storage, naming production's own backups", () => {
    const s3 = loadConfig({ STORAGE: "s3", S3_REGION: "eu-central-1", S3_BUCKET: "plume-test", S3_ACCESS_KEY_ID: "k", S3_SECRET_ACCESS_KEY: "s" });
    expect(() => refuseUnlessEmbedded(s3, "backup")).toThrow(/npm run backup is for the embedded database .*\(STORAGE=s3\).*versioning or replication; see docs\/deploy\.md/);
    expect(() => refuseUnlessEmbedded(loadConfig({}), "backup")).not.toThrow();
  });

  it("refuses a folder holding a database without --force, and with it moves the old data aside", async () => {
    const before = listing(dataDir);
    await expect(restoreBackup(dataDir, archive)).rejects.toThrow(/already holds a database: add --force/);
    expect(listing(dataDir)).toEqual(before);

    const now = new Date("2026-11-26T10:00:00Z");
    const { movedAside } = await restoreBackup(dataDir, archive, { force: true, now });
    expect(movedAside).toBe(`${dataDir}.before-restore-20261126T100000Z`);
    expect(listing(movedAside!)).toEqual(before);
    expect(listing(dataDir)).toEqual(expect.arrayContaining(["session-secret 64", expect.stringMatching(/^pglite\/PG_VERSION /)]));
  });

  describe("refuses bad or hostile archives, leaving the data folder as it was", () => {
    const craft = async (name: string, files: Record<string, string | Buffer>, extra: (folder: string) => void = () => {}) => {
      const folder = mkdtempSync(join(root, "craft-"));
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(join(folder, path, ".."), { recursive: true });
        writeFileSync(join(folder, path), content);
      }
      extra(folder);
      const file = join(root, name);
      await tar.c({ cwd: folder, file, gzip: true, preservePaths: true }, readdirSync(folder));
      return file;
    };
    const validManifest = () => JSON.stringify({ formatVersion: 1, migration: newestCommittedMigration(), counts: {} });
    /** A tar's blocks, as node-tar writes them: a header, the body padded to 512 bytes. */
    const tarEntry = (path: string, body: Buffer, header: Partial<tar.HeaderData> = {}) => {
      const encoded = new tar.Header({ path, mode: 0o644, size: body.length, mtime: new Date(0), type: "File", ...header });
      encoded.encode();
      return Buffer.concat([encoded.block!, body, Buffer.alloc((512 - (body.length % 512)) % 512)]);
    };
    const tarOf = (...entries: Buffer[]) => Buffer.concat([...entries, Buffer.alloc(1024)]);
    /** An archive with a valid manifest and this database dump. */
    const withDump = (name: string, dump: Buffer) => craft(name, { "manifest.json": validManifest(), "database.tar": dump });
    const gzipped = (name: string, bytes: Buffer) => (writeFileSync(join(root, name), gzipSync(bytes)), join(root, name));

    const cases: [string, () => Promise<string>, RegExp, Partial<RestoreLimits>?][] = [
      ["a missing file", async () => join(root, "no-such.tar.gz"), /There is no backup file/],
      ["a file that is no archive", async () => (writeFileSync(join(root, "notes.txt"), "just text\n".repeat(100)), join(root, "notes.txt")), /not a readable Plume backup/],
      [
        "a truncated archive",
        async () => {
          const whole = readFileSync(archive);
          writeFileSync(join(root, "truncated.tar.gz"), whole.subarray(0, whole.length / 2));
          return join(root, "truncated.tar.gz");
        },
        /not a readable Plume backup/,
      ],
      ["an archive without a manifest", () => craft("no-manifest.tar.gz", { "session-secret": "s" }), /has no readable manifest.json/],
      [
        "an archive of a newer Plume",
        () => craft("newer.tar.gz", { "manifest.json": JSON.stringify({ formatVersion: 1, migration: { index: 999, tag: "0999_future", when: 9e15 } }), "database.tar": "x" }),
        /newer Plume \(migration 0999_future/,
      ],
      ["an archive of another format", () => craft("format.tar.gz", { "manifest.json": JSON.stringify({ formatVersion: 2 }) }), /format 2; this Plume reads format 1/],
      [
        "a symbolic link out of the folder",
        () => craft("link.tar.gz", { "manifest.json": validManifest() }, (folder) => symlinkSync("/etc/passwd", join(folder, "session-secret"))),
        /entries a Plume backup never has \(session-secret\)/,
      ],
      [
        "a path climbing out with ..",
        async () => {
          const folder = mkdtempSync(join(root, "climb-"));
          writeFileSync(join(folder, "manifest.json"), validManifest());
          writeFileSync(join(root, "escaped"), "outside");
          const file = join(root, "climb.tar.gz");
          await tar.c({ cwd: folder, file, gzip: true, preservePaths: true }, ["manifest.json", "../escaped"]);
          return file;
        },
        /entries a Plume backup never has \(\.\.\/escaped\)/,
      ],
      [
        "an absolute path",
        async () => {
          const file = join(root, "absolute.tar.gz");
          writeFileSync(join(root, "absolute-target"), "outside");
          await tar.c({ cwd: root, file, gzip: true, preservePaths: true }, [join(root, "absolute-target")]);
          return file;
        },
        /entries a Plume backup never has/,
      ],
      // docs/decisions/0053: each refused before anything is written, in one line, the staging folder never left behind.
      ["a gzip file that is not a tar", async () => gzipped("text.tar.gz", Buffer.from("just text\n".repeat(200))), /not a readable Plume backup/],
      ["a tar cut short inside its gzip", async () => gzipped("cut.tar.gz", tarOf(tarEntry("manifest.json", Buffer.from(validManifest()))).subarray(0, 700)), /not a readable Plume backup/],
      [
        "a hard link",
        () =>
          craft("hardlink.tar.gz", { "manifest.json": validManifest(), "session-secret": "s" }, (folder) => {
            mkdirSync(join(folder, "uploads", "books"), { recursive: true });
            linkSync(join(folder, "session-secret"), join(folder, "uploads", "books", "copy.pdf"));
          }),
        /entries a Plume backup never has \(uploads\/books\/copy\.pdf\)/,
      ],
      ["more entries than a backup has", () => craft("many.tar.gz", { "manifest.json": validManifest(), "session-secret": "s", "uploads/books/a.pdf": "a", "uploads/books/b.pdf": "b" }), /more than 4 entries/, { members: 4 }],
      [
        "a book file larger than any upload",
        async () => gzipped("large.tar.gz", tarOf(tarEntry("manifest.json", Buffer.from(validManifest())), tarEntry("uploads/books/big.pdf", Buffer.alloc(0), { size: 60 * 1024 * 1024 }))),
        /uploads\/books\/big\.pdf of 62914560 bytes, larger than Plume ever stores it/,
      ],
      [
        // The floor lowered from 256 to 32 MiB: the same refusal for a sixth of the inflating.
        "a decompression bomb: 48 MiB of zeros in a 50 kB archive",
        async () => {
          const file = join(root, "bomb.tar.gz");
          const header = tarEntry("database.tar", Buffer.alloc(0), { size: 48 * 1024 * 1024 });
          async function* blocks() {
            yield tarEntry("manifest.json", Buffer.from(validManifest()));
            yield header;
            for (let mebibyte = 0; mebibyte < 48; mebibyte += 1) yield Buffer.alloc(1024 * 1024);
            yield Buffer.alloc(1024);
          }
          await pipeline(blocks, createGzip({ level: 9 }), createWriteStream(file));
          expect(statSync(file).size).toBeLessThan(60_000);
          return file;
        },
        /unpacks to more than 3\d MiB, far more than a Plume backup of its size/,
        { inflationFloorBytes: 32 * 1024 * 1024 },
      ],
      ["not enough free disk", async () => archive, /MiB free, of which .* MiB must stay free; nothing was restored/, { reserveBytes: 2 ** 52 }],
      ["a database.tar that is not a dump", () => withDump("not-dump.tar.gz", Buffer.from("not a dump at all\n".repeat(100))), /database\.tar that is not a Plume database dump \(not a tar file\)/],
      ["a database.tar cut short", () => withDump("dump-cut.tar.gz", tarOf(tarEntry("/PG_VERSION", Buffer.from("17\n"))).subarray(0, 600)), /not a Plume database dump \(it ends before its last entry\)/],
      ["a dump whose file climbs out with ..", () => withDump("dump-climb.tar.gz", tarOf(tarEntry("/../../escaped", Buffer.from("x")))), /not a Plume database dump \(\/\.\.\/\.\.\/escaped leaves the database folder\)/],
      [
        "a dump holding a symbolic link",
        () => withDump("dump-link.tar.gz", tarOf(tarEntry("/PG_VERSION", Buffer.alloc(0), { type: "SymbolicLink", linkpath: "/etc/passwd", size: 0 }))),
        /not a Plume database dump \(\/PG_VERSION is neither a file nor a folder\)/,
      ],
      [
        "a dump with a damaged header",
        async () => {
          const entry = tarEntry("/PG_VERSION", Buffer.from("17\n"));
          entry[10] = 0x41;
          return withDump("dump-damaged.tar.gz", tarOf(entry));
        },
        /not a Plume database dump \(a damaged header\)/,
      ],
      ["a dump with too many files", () => withDump("dump-many.tar.gz", tarOf(...["a", "b", "c"].map((name) => tarEntry(`/${name}`, Buffer.from(name))))), /not a Plume database dump \(more than 2 files\)/, { databaseDumpMembers: 2 }],
      ["a dump PGlite cannot open", () => withDump("dump-junk.tar.gz", tarOf(tarEntry("/PG_VERSION", Buffer.from("junk\n")))), /holds a database this Plume cannot open/],
    ];

    it.each(cases)("%s", async (_name, make, message, limits = {}) => {
      const file = await make();
      const before = listing(dataDir);
      const siblings = readdirSync(join(dataDir, ".."));
      const escaped = existsSync(join(root, "escaped")) ? statSync(join(root, "escaped")).mtimeMs : null;
      const error = await restoreBackup(dataDir, file, { force: true, limits: { ...RESTORE_LIMITS, ...limits } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BackupError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain("\n");
      expect(listing(dataDir)).toEqual(before);
      expect(readdirSync(join(dataDir, ".."))).toEqual(siblings);
      if (escaped !== null) expect(statSync(join(root, "escaped")).mtimeMs).toBe(escaped);
    });
  });

  it("as a command: refuses while the folder is in use, refuses external storage, and exits 0 once it wrote the archive", async () => {
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    const out = join(root, "cli.tar.gz");
    try {
      writeFileSync(join(dataDir, "plume.lock"), formatMark(markOf(holder.pid!)));
      const locked = await runCli(["backup", "--out", out], { DATA_DIR: dataDir });
      expect(locked.code).toBe(1);
      expect(locked.stderr.trim()).toMatch(/^backup refused: The data folder .* is in use by another Plume server .*Stop it first/);
      expect(locked.stderr.trim().split("\n")).toHaveLength(1);
    } finally {
      holder.kill("SIGKILL");
      rmSync(join(dataDir, "plume.lock"));
    }
    const postgres = await runCli(["restore", archive], { DATA_DIR: dataDir, DATABASE_URL: "postgres://plume@localhost/plume" });
    expect(postgres).toMatchObject({ code: 1, stderr: expect.stringMatching(/DATABASE_URL is set.*pg_dump.*docs\/deploy\.md/) });

    const before = listing(dataDir);
    const hostile = await runCli(["restore", "--force", join(root, "link.tar.gz")], { DATA_DIR: dataDir });
    expect(hostile).toMatchObject({ code: 1, stderr: expect.stringMatching(/^restore refused: .*entries a Plume backup never has \(session-secret\); nothing was restored\.\n$/) });
    expect(listing(dataDir)).toEqual(before);

    const written = await runCli(["backup", "--out", out], { DATA_DIR: dataDir });
    expect(written).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Backed up .* 1 accounts, 1 books, 1 book files, 1 covers/) });
    expect(existsSync(out)).toBe(true);
  }, COMMAND_RUNS_TIMEOUT_MS);

  it("as a command: a database dump that is not one ends in one line and exit 1, and leaves no folder behind (docs/decisions/0053)", async () => {
    const before = listing(dataDir);
    // It crashed the command with an uncaught zlib error and left its staging folder.
    const foreign = mkdtempSync(join(root, "foreign-"));
    writeFileSync(join(foreign, "manifest.json"), JSON.stringify({ formatVersion: 1, migration: newestCommittedMigration(), counts: {} }));
    writeFileSync(join(foreign, "database.tar"), "not a dump\n".repeat(100));
    await tar.c({ cwd: foreign, file: join(root, "foreign.tar.gz"), gzip: true }, ["manifest.json", "database.tar"]);
    const notDump = await runCli(["restore", "--force", join(root, "foreign.tar.gz")], { DATA_DIR: dataDir });
    expect(notDump).toMatchObject({ code: 1, stderr: expect.stringMatching(/^restore refused: .*database\.tar that is not a Plume database dump \(not a tar file\); nothing was restored\.\n$/) });
    expect(listing(dataDir)).toEqual(before);
    expect(readdirSync(root).filter((name) => name.includes(".restoring-"))).toEqual([]);
  }, COMMAND_RUNS_TIMEOUT_MS);
});
