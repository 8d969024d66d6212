import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

export type StoredKind = "books" | "covers";

/** A UUID, an optional "-{width}" for one size of an image, and an extension. */
const STORED_NAME = /^[0-9a-f-]{36}(-\d{1,4})?\.[a-z]{3,4}$/;

/**
 * Uploaded files on disk under DATA_DIR/uploads, outside any served folder, always under
 * names the server made (a UUID and a checked extension), never the client's.
 */
export class FileStore {
  readonly tmpDir: string;

  constructor(private readonly root: string) {
    this.tmpDir = join(root, "tmp");
    for (const folder of [this.tmpDir, join(root, "books"), join(root, "covers")]) mkdirSync(folder, { recursive: true });
  }

  /** A fresh path for an incoming upload; nothing else ever writes into tmp. */
  newTempPath(): string {
    return join(this.tmpDir, randomUUID());
  }

  /** Moves a checked temporary file to its final name (same file system: an atomic rename). */
  async keep(tempPath: string, kind: StoredKind, extension: string): Promise<string> {
    const name = `${randomUUID()}.${extension}`;
    await rename(tempPath, this.pathOf(kind, name));
    return name;
  }

  /** Writes a file the server made (never the client's bytes as they came) under a name it made. */
  async write(kind: StoredKind, name: string, data: Buffer): Promise<void> {
    await writeFile(this.pathOf(kind, name), data, { flag: "wx" });
  }

  pathOf(kind: StoredKind, name: string): string {
    if (!STORED_NAME.test(name)) throw new Error(`Not a stored file name: ${name}`);
    return join(this.root, kind, name);
  }

  /** The files the server stored under this kind; anything else in the folder is not its own and is left alone. */
  storedNames(kind: StoredKind): string[] {
    return readdirSync(join(this.root, kind)).filter((name) => STORED_NAME.test(name));
  }

  async remove(kind: StoredKind, name: string | null | undefined): Promise<void> {
    if (name) await rm(this.pathOf(kind, name), { force: true });
  }

  /** Throws unless a file can be written and removed where uploads arrive: the readiness probe's storage check. */
  async checkWritable(): Promise<void> {
    const probe = this.newTempPath();
    await writeFile(probe, "");
    await rm(probe);
  }

  /** Temporary files left by a crash mid-upload; safe at start, when no upload is in flight. */
  purgeTemp(): void {
    for (const entry of readdirSync(this.tmpDir)) rmSync(join(this.tmpDir, entry), { force: true });
  }
}
