import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { access, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openFileToSend, sendFileBody } from "../http/send-file.ts";
import { type FileStore, type OpenedFile, type StoredEntry, type StoredKind, STORED_KINDS, TempFolder, checkStoredName, isStoredName } from "./file-store.ts";

/** Uploaded files on disk under DATA_DIR/uploads (books/, covers/, views/, tmp/), outside any served folder. */
export class DiskStore implements FileStore {
  readonly temp: TempFolder;

  /** `accelRedirect`: nginx's internal location of `root`, from which it can send a file itself (docs/decisions/0078). */
  constructor(
    private readonly root: string,
    private readonly options: { accelRedirect?: string } = {},
  ) {
    this.temp = new TempFolder(join(root, "tmp"));
    for (const kind of STORED_KINDS) mkdirSync(join(root, kind), { recursive: true });
  }

  /** Same file system as the temporary folder: an atomic rename. */
  async keep(tempPath: string, kind: StoredKind, extension: string): Promise<string> {
    const name = `${randomUUID()}.${extension}`;
    await this.keepAs(tempPath, kind, name);
    return name;
  }

  async keepAs(tempPath: string, kind: StoredKind, name: string): Promise<void> {
    await rename(tempPath, this.pathOf(kind, name));
  }

  async write(kind: StoredKind, name: string, data: Buffer): Promise<void> {
    await writeFile(this.pathOf(kind, name), data, { flag: "wx" });
  }

  async open(kind: StoredKind, name: string): Promise<OpenedFile> {
    // Held open, the file stays whole even if it is deleted before it has gone out.
    const file = await openFileToSend(this.pathOf(kind, name));
    const { mtime } = await file.handle.stat();
    return {
      size: file.size,
      // What Express's sendFile sent for covers before (the send package's weak validator): caches keep theirs.
      etag: `W/"${file.size.toString(16)}-${mtime.getTime().toString(16)}"`,
      lastModified: mtime,
      send: (res, range) => sendFileBody(res, file, range),
      ...(this.options.accelRedirect ? { accelRedirect: `${this.options.accelRedirect}${kind}/${checkStoredName(name)}` } : {}),
      close: () => file.handle.close(),
    };
  }

  has(kind: StoredKind, name: string): Promise<boolean> {
    return access(this.pathOf(kind, name)).then(() => true, () => false);
  }

  withLocalFile<T>(kind: StoredKind, name: string, use: (path: string) => Promise<T>): Promise<T> {
    return use(this.pathOf(kind, name));
  }

  async list(kind: StoredKind): Promise<StoredEntry[]> {
    const names = (await readdir(join(this.root, kind))).filter(isStoredName);
    const entries = await Promise.all(
      // A file removed since the listing is simply no longer there.
      names.map((name) => stat(this.pathOf(kind, name)).then((stats) => ({ name, modifiedAt: stats.mtime }), () => null)),
    );
    return entries.filter((entry) => entry !== null);
  }

  async remove(kind: StoredKind, name: string | null | undefined): Promise<void> {
    if (name) await rm(this.pathOf(kind, name), { force: true });
  }

  check(): Promise<void> {
    return this.temp.checkWritable();
  }

  close(): void {}

  /** Where a stored file lies: for the disk driver's own tests and tools. */
  pathOf(kind: StoredKind, name: string): string {
    return join(this.root, kind, checkStoredName(name));
  }
}
