import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { Response } from "express";
import { pipeline } from "node:stream/promises";
import { setTimeout } from "node:timers/promises";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import pLimit from "p-limit";
import { ConfigError, type S3Settings } from "../config.ts";
import { fileStoreUnavailable } from "../http/errors.ts";
import { forbidTransforms } from "../http/send-file.ts";
import { logger } from "../system/logger.ts";
import { type FileStore, type OpenedFile, type StoredEntry, type StoredKind, TempFolder, checkStoredName, isStoredName } from "./file-store.ts";

/**
 * How a checked file goes to the bucket (docs/decisions/0061): streamed from the temporary file, never
 * held in memory. Up to SINGLE_PUT_MAX_BYTES in one PutObject; above, in parts of PART_BYTES, each a
 * read stream over its byte range of the file. At most two uploads stream at once; the others wait with
 * their file on disk.
 */
const SINGLE_PUT_MAX_BYTES = 16 * 1024 * 1024;
const PART_BYTES = 8 * 1024 * 1024;
const UPLOADS_AT_ONCE = 2;

/** How long the start-up check waits for the bucket: an endpoint that does not answer stops the start. */
const CHECK_TIMEOUT_MS = 5_000;

const statusOf = (error: unknown) => (error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined);

/**
 * How many times a file's bytes are sent before its upload fails. The SDK retries a failed request on
 * its own, but never one whose body is a stream (it cannot read the stream twice), so a connection
 * reset or a bucket's 503 "slow down" would fail the author's upload at once: these attempts open the
 * file again for each try.
 */
const SEND_ATTEMPTS = 3;
const SEND_RETRY_DELAY_MS = 200;
const TRANSIENT_NETWORK_CODES = new Set(["ECONNRESET", "EPIPE", "ETIMEDOUT", "ECONNREFUSED", "ECONNABORTED", "EAI_AGAIN", "ENOTFOUND"]);

/** A failure another try may not meet: the bucket busy or failing (429, 5xx), a timeout, the connection lost. */
export function isTransientS3Error(error: unknown): boolean {
  const status = statusOf(error);
  if (status !== undefined) return status === 429 || status >= 500;
  const { code, name, $retryable } = (error ?? {}) as { code?: string; name?: string; $retryable?: unknown };
  return Boolean($retryable) || name === "TimeoutError" || (code !== undefined && TRANSIENT_NETWORK_CODES.has(code));
}

/** Uploaded files as objects `books/{name}` and `covers/{name}` in one bucket; uploads wait in a local temporary folder. */
export class S3Store implements FileStore {
  readonly temp: TempFolder;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly uploads = pLimit(UPLOADS_AT_ONCE);

  constructor(
    private readonly settings: S3Settings,
    tempDir: string,
  ) {
    this.temp = new TempFolder(tempDir);
    this.bucket = settings.bucket;
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      requestHandler: { connectionTimeout: CHECK_TIMEOUT_MS },
      // With the SDK's default checksums a streamed body is read whole to checksum it, or sent
      // aws-chunked, which some S3-compatible stores keep framing and all (docs/decisions/0042).
      requestChecksumCalculation: "WHEN_REQUIRED",
    });
  }

  /**
   * Rejects with one line naming the setting when the bucket cannot be used (at start, it stops the
   * server): it does not exist, the keys are refused, or the endpoint does not answer. Never repeats a
   * key. The temporary folder, where uploads are checked, must take a file too.
   */
  async check(): Promise<void> {
    await this.temp.checkWritable();
    const where = this.settings.endpoint ?? `AWS S3 (${this.settings.region})`;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) throw new ConfigError(`Invalid setting S3_BUCKET: there is no bucket ${this.bucket} at ${where}`);
      if (status === 403 || status === 401) {
        throw new ConfigError(`Invalid setting S3_ACCESS_KEY_ID: ${where} refused these keys for the bucket ${this.bucket} (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)`);
      }
      if (status === 301) throw new ConfigError(`Invalid setting S3_REGION: the bucket ${this.bucket} is in another region than ${this.settings.region}`);
      if (status !== undefined) throw new ConfigError(`Invalid setting S3_ENDPOINT: ${where} answered ${status} when asked for the bucket ${this.bucket}`);
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
      throw new ConfigError(`Invalid setting S3_ENDPOINT: could not reach ${where} within ${CHECK_TIMEOUT_MS / 1000} s (${reason})`);
    }
  }

  private key(kind: StoredKind, name: string): string {
    return `${kind}/${checkStoredName(name)}`;
  }

  /**
   * Streams the checked file to the bucket. A failed multipart upload is aborted, so a failed keep
   * leaves no object; the temporary file is then the upload's to remove.
   */
  async keep(tempPath: string, kind: StoredKind, extension: string): Promise<string> {
    const name = `${randomUUID()}.${extension}`;
    await this.keepAs(tempPath, kind, name);
    return name;
  }

  async keepAs(tempPath: string, kind: StoredKind, name: string): Promise<void> {
    const key = this.key(kind, name);
    const { size } = await stat(tempPath);
    await this.uploads(() => (size <= SINGLE_PUT_MAX_BYTES ? this.putFile(key, tempPath, size) : this.putFileInParts(key, tempPath, size)));
    await rm(tempPath, { force: true });
  }

  private async putFile(key: string, path: string, size: number): Promise<void> {
    await sendFile(
      () => createReadStream(path),
      (Body) => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body, ContentLength: size })),
    );
  }

  private async putFileInParts(key: string, path: string, size: number): Promise<void> {
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }));
    try {
      const parts: Array<{ ETag: string; PartNumber: number }> = [];
      for (let start = 0; start < size; start += PART_BYTES) {
        const end = Math.min(start + PART_BYTES, size);
        const PartNumber = parts.length + 1;
        const { ETag } = await sendFile(
          () => createReadStream(path, { start, end: end - 1 }),
          (Body) => this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId, PartNumber, Body, ContentLength: end - start })),
        );
        parts.push({ ETag: ETag!, PartNumber });
      }
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }));
    } catch (error) {
      // The parts sent so far are dropped: no object appears, and the bucket does not keep them.
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId })).catch(() => {});
      throw error;
    }
  }

  async write(kind: StoredKind, name: string, data: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(kind, name), Body: data }));
  }

  async open(kind: StoredKind, name: string): Promise<OpenedFile> {
    const key = this.key(kind, name);
    const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    const etag = head.ETag!;
    return {
      size: head.ContentLength!,
      etag,
      lastModified: head.LastModified!,
      send: async (res, range) => {
        forbidTransforms(res);
        try {
          const object = await this.client.send(
            new GetObjectCommand({
              Bucket: this.bucket,
              Key: key,
              // The object whose size the headers promised, never another under the same name.
              IfMatch: etag,
              ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
            }),
            { abortSignal: abortedWith(res) },
          );
          await pipeline(object.Body as Readable, res);
        } catch (error) {
          res.destroy(error as Error);
        }
      },
      close: async () => {},
    };
  }

  async has(kind: StoredKind, name: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(kind, name) }));
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  /** Copies the object to the local temporary folder for `use`, and removes the copy after. */
  async withLocalFile<T>(kind: StoredKind, name: string, use: (path: string) => Promise<T>): Promise<T> {
    const path = join(this.temp.dir, `${randomUUID()}-${checkStoredName(name)}`);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(kind, name) }));
      await pipeline(object.Body as Readable, createWriteStream(path, { flags: "wx" }));
      return await use(path);
    } finally {
      await rm(path, { force: true });
    }
  }

  async list(kind: StoredKind): Promise<StoredEntry[]> {
    const entries: StoredEntry[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${kind}/`, ContinuationToken }));
      for (const object of page.Contents ?? []) {
        const name = object.Key!.slice(kind.length + 1);
        if (isStoredName(name)) entries.push({ name, modifiedAt: object.LastModified! });
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return entries;
  }

  async remove(kind: StoredKind, name: string | null | undefined): Promise<void> {
    if (name) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(kind, name) }));
  }

  close(): void {
    this.client.destroy();
  }
}

/** Aborts the bucket's answer when the client leaves, so its connection goes back to the pool. */
function abortedWith(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once("close", () => controller.abort());
  return controller.signal;
}

/** Sends a request whose body is a file's stream, opened afresh for each try, again after a transient failure. */
async function sendFile<T>(open: () => Readable, send: (body: Readable) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const body = open();
    try {
      return await send(body);
    } catch (error) {
      if (!isTransientS3Error(error)) throw error;
      if (attempt >= SEND_ATTEMPTS) {
        // The caller answers a 503 without the bucket's words: the operator reads them here.
        logger.warn({ component: "s3", attempts: attempt, err: error }, "the bucket did not take a file");
        throw fileStoreUnavailable();
      }
      await setTimeout(SEND_RETRY_DELAY_MS * attempt);
    } finally {
      // A failed try may leave its stream half read: its file descriptor goes now, not at collection.
      body.destroy();
    }
  }
}
