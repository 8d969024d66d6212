import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import type { S3Settings } from "../../server/config.ts";

export const TEST_BUCKET = "plume-test";

/** s3rver's own fixed keys: it refuses a request signed with any others, as a real bucket would. */
const S3RVER_KEY = "S3RVER";

export interface TestS3Server {
  /** The settings of a driver on this server's bucket. */
  settings: S3Settings;
  /** The same, as the environment names them. */
  env: Record<string, string>;
  /** Every object's key in the bucket. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

/** A real S3 protocol server in this process, on a free port, with one empty bucket: no Docker, no network. */
export async function startS3Server(): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), "plume-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: TEST_BUCKET }] });
  const { port } = await server.run();
  const settings: S3Settings = {
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    bucket: TEST_BUCKET,
    accessKeyId: S3RVER_KEY,
    secretAccessKey: S3RVER_KEY,
    forcePathStyle: true,
  };
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
  });
  return {
    settings,
    env: {
      STORAGE: "s3",
      S3_ENDPOINT: settings.endpoint!,
      S3_REGION: settings.region,
      S3_BUCKET: TEST_BUCKET,
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
      S3_FORCE_PATH_STYLE: "true",
    },
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
