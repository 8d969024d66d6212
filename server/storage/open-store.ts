import { join } from "node:path";
import type { Config } from "../config.ts";
import { DiskStore } from "./disk-store.ts";
import type { FileStore } from "./file-store.ts";

/** The store the settings name, checked: a bucket that cannot be used stops the start (docs/decisions/0042). */
export async function openFileStore(config: Pick<Config, "dataDir" | "storage">): Promise<FileStore> {
  const uploads = join(config.dataDir, "uploads");
  if (config.storage.driver === "disk") return new DiskStore(uploads, { accelRedirect: config.storage.accelRedirect });
  // Uploads are checked on local disk before they go to the bucket, whatever the driver.
  // Loaded only for a bucket: the AWS SDK weighs 20 MB resident (docs/decisions/0045).
  const { S3Store } = await import("./s3-store.ts");
  const store = new S3Store(config.storage.s3, join(uploads, "tmp"));
  try {
    await store.check();
  } catch (error) {
    store.close();
    throw error;
  }
  return store;
}
