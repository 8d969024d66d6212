import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readdir, rm, stat, statfs, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Response } from "express";
import type { ByteRange } from "../http/send-file.ts";

/** Books as uploaded, covers, and what is derived from a book's file: a Word book's reading view (docs/decisions/0051). */
export const STORED_KINDS = ["books", "covers", "views"] as const;
export type StoredKind = (typeof STORED_KINDS)[number];

/** A UUID, an optional "-{width}" for one size of an image, and an extension. */
const STORED_NAME = /^[0-9a-f-]{36}(-\d{1,4})?\.[a-z]{3,4}$/;

export const isStoredName = (name: string) => STORED_NAME.test(name);

export function checkStoredName(name: string): string {
  if (!isStoredName(name)) throw new Error(`Not a stored file name: ${name}`);
  return name;
}

/** A stored file as a listing shows it: the start-up sweep judges it by its age (docs/decisions/0042). */
export interface StoredEntry {
  name: string;
  modifiedAt: Date;
}

/** A stored file opened to be sent: its size and validators as it was opened. */
export interface OpenedFile {
  size: number;
  /** A validator for conditional requests (covers are cached): the same file always has the same one. */
  etag: string;
  lastModified: Date;
  /**
   * Sends the file (or `range` of it, inclusive) as the body of a response whose headers are set, and
   * ends it. Never rejects: a client that leaves ends it, a file that cannot be read to its end cuts it.
   */
  send(res: Response, range?: ByteRange): Promise<void>;
  /**
   * The path under which nginx, in front, sends this file itself when asked with X-Accel-Redirect
   * (DOWNLOADS_ACCEL_REDIRECT, docs/decisions/0078); undefined when Plume sends its files.
   */
  accelRedirect?: string;
  close(): Promise<void>;
}

/**
 * Where uploads wait while they are checked: always a local folder, whatever the driver, since the
 * checks (type sniffing, Word documents' contents, cover decoding) read the whole file (docs/decisions/0042).
 */
export class TempFolder {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** A fresh path for an incoming upload; nothing else ever writes into this folder. */
  newPath(): string {
    return join(this.dir, randomUUID());
  }

  /** Throws unless a file can be written and removed where uploads arrive. */
  async checkWritable(): Promise<void> {
    const probe = this.newPath();
    await writeFile(probe, "");
    await rm(probe);
  }

  /**
   * The bytes an unprivileged process may still write on the file system of this folder: every upload
   * lands here first, and the disk store keeps its files beside it (docs/decisions/0055).
   */
  async freeBytes(): Promise<number> {
    const { bavail, bsize } = await statfs(this.dir);
    return bavail * bsize;
  }

  /**
   * Removes temporary files last written before `olderThan`, left by a crash mid-upload. A younger one
   * may be another process's upload in flight on the same folder (docs/decisions/0042).
   */
  async purge(olderThan: Date): Promise<number> {
    let removed = 0;
    for (const entry of await readdir(this.dir)) {
      const path = join(this.dir, entry);
      const modified = await stat(path).then((stats) => stats.mtime, () => null);
      if (modified && modified < olderThan) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
    return removed;
  }
}

/**
 * Uploaded files, always under names the server made (a UUID and a checked extension), never the
 * client's: on disk under DATA_DIR/uploads (disk-store.ts) or in a bucket (s3-store.ts).
 */
export interface FileStore {
  readonly temp: TempFolder;
  /** Stores a checked temporary file under a new name, and removes the temporary file. */
  keep(tempPath: string, kind: StoredKind, extension: string): Promise<string>;
  /**
   * Stores a temporary file the server made under a name it derived (a book's reading view, named after
   * the book's file), replacing a file of that name: servers sharing the files make the same file alike.
   */
  keepAs(tempPath: string, kind: StoredKind, name: string): Promise<void>;
  /** Writes a file the server made (never the client's bytes as they came) under a name it made. */
  write(kind: StoredKind, name: string, data: Buffer): Promise<void>;
  /** Rejects if the file is not there. */
  open(kind: StoredKind, name: string): Promise<OpenedFile>;
  has(kind: StoredKind, name: string): Promise<boolean>;
  /** Runs `use` on a local path holding the file, for readers that need a file (pdf.js's child process, the Word converters). */
  withLocalFile<T>(kind: StoredKind, name: string, use: (path: string) => Promise<T>): Promise<T>;
  /** The files the server stored under this kind; anything else there is not its own and is left alone. */
  list(kind: StoredKind): Promise<StoredEntry[]>;
  remove(kind: StoredKind, name: string | null | undefined): Promise<void>;
  /**
   * Rejects unless files can be stored: the temporary folder takes a file, and the bucket answers
   * (the readiness probe's storage check; a bucket's refusal names its setting).
   */
  check(): Promise<void>;
  /** Lets go of connections (the bucket's); the store is not used after. */
  close(): void;
}
