import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { Request, RequestHandler } from "express";
import multer from "multer";
import {
  BOOK_EXTENSIONS,
  BOOK_FILE_MAX_BYTES,
  COVER_EXTENSIONS,
  COVER_MAX_BYTES,
} from "../../shared/books.ts";
import { HttpError } from "../http/errors.ts";
import type { FileStore } from "../storage/file-store.ts";
import { SNIFF_BYTES, extensionOf } from "./file-types.ts";
import type { DocxLimits } from "../config.ts";
import type { UnsafeDocument } from "./word-documents.ts";
import type { UnsafeEpub } from "./epub-documents.ts";

export type UploadField = "file" | "coverImage";

/** A file part as received: on disk under a temporary name, with its first bytes for sniffing. */
export interface ReceivedFile {
  tempPath: string;
  size: number;
  header: Buffer;
  extension: string;
  /** The SHA-256 of its bytes, hex, hashed as they arrived: what an exact copy is recognised by (docs/decisions/0091). */
  sha256: string;
  /** The client's name, untrusted: for display only, never in a path. */
  originalName: string;
}

const RULES: Record<UploadField, { maxBytes: number; extensions: readonly string[]; tooLarge: string; invalidType: string }> = {
  file: {
    maxBytes: BOOK_FILE_MAX_BYTES,
    extensions: BOOK_EXTENSIONS,
    tooLarge: "upload.fileTooLarge",
    invalidType: "upload.fileInvalidType",
  },
  coverImage: {
    maxBytes: COVER_MAX_BYTES,
    extensions: COVER_EXTENSIONS,
    tooLarge: "upload.imageTooLarge",
    invalidType: "upload.imageInvalidType",
  },
};

export const fileTooLarge = (field: UploadField) =>
  new HttpError(413, "file_too_large", `The ${field} is larger than ${RULES[field].maxBytes / 1024 / 1024} MB.`, {
    [field]: RULES[field].tooLarge,
  });
export const fileInvalidType = (field: UploadField) =>
  new HttpError(415, "file_invalid_type", `The ${field} is not one of: ${RULES[field].extensions.join(", ")}.`, {
    [field]: RULES[field].invalidType,
  });

const UNSAFE_DOCUMENTS: Record<UnsafeDocument, (limits: DocxLimits) => [code: string, message: string, field: string]> = {
  macros: () => ["document_has_macros", "The document contains macros; save it as a document without macros (.docx).", "upload.fileHasMacros"],
  "external-content": () => ["document_reaches_out", "The document loads a template or content from another address when opened.", "upload.fileReachesOut"],
  "unpacks-too-large": ({ unpackedMaxBytes, inflateRatioMax }) => [
    "document_unpacks_too_large",
    `The document unpacks to more than ${unpackedMaxBytes / 1024 / 1024} MB, or one of its parts to more than ${inflateRatioMax} times its packed size.`,
    "upload.fileUnpacksTooLarge",
  ],
  "text-too-large": ({ documentMaxBytes }) => [
    "document_text_too_large",
    `The document's text unpacks to more than ${documentMaxBytes / 1024 / 1024} MB, more than the reading view can show; split it into volumes.`,
    "upload.fileTextTooLarge",
  ],
  damaged: () => ["document_damaged", "The document is damaged: its structure cannot be read safely. Open it in Word and save it again.", "upload.fileDamaged"],
  malformed: () => ["file_invalid_type", "The file is not a readable Word document.", "upload.fileInvalidType"],
};
export const unsafeDocument = (reason: UnsafeDocument, limits: DocxLimits) => {
  const [code, message, field] = UNSAFE_DOCUMENTS[reason](limits);
  return new HttpError(reason === "malformed" ? 415 : 422, code, message, { file: field });
};

type Refusal = [code: string, message: string, field: string];

/** Why an EPUB is refused (docs/decisions/0095): a stable code, the English message with what the check found, the field's text. */
const UNSAFE_EPUBS: Record<UnsafeEpub | "too-complex", (detail: string, limits: DocxLimits) => Refusal> = {
  malformed: (detail) => ["epub_malformed", `The EPUB is not a valid EPUB: ${detail}.`, "upload.epubMalformed"],
  entities: (detail) => ["epub_declares_entities", `The EPUB declares XML entities or refers to an outside DTD: ${detail}.`, "upload.epubDeclaresEntities"],
  scripts: (detail) => ["epub_has_scripts", `The EPUB contains scripts: ${detail}.`, "upload.epubHasScripts"],
  "remote-resources": (detail) => ["epub_loads_remote_content", `The EPUB loads content from other addresses when opened: ${detail}.`, "upload.epubLoadsRemoteContent"],
  encrypted: (detail) => ["epub_encrypted", `The EPUB is locked with DRM: ${detail}.`, "upload.epubEncrypted"],
  "unpacks-too-large": (detail, { unpackedMaxBytes, inflateRatioMax }) => [
    "epub_unpacks_too_large",
    `The EPUB unpacks to more than ${unpackedMaxBytes / 1024 / 1024} MB, or one of its parts to more than ${inflateRatioMax} times its packed size: ${detail}.`,
    "upload.epubUnpacksTooLarge",
  ],
  "unsafe-paths": (detail) => ["epub_unsafe_paths", `The EPUB holds a file whose name leads outside the book: ${detail}.`, "upload.epubUnsafePaths"],
  "too-complex": (detail) => ["epub_too_complex", `The EPUB could not be checked in time or memory: ${detail}.`, "upload.epubTooComplex"],
};
export const unsafeEpub = (reason: UnsafeEpub | "too-complex", detail: string, limits: DocxLimits) => {
  const [code, message, field] = UNSAFE_EPUBS[reason](detail, limits);
  return new HttpError(422, code, message, { file: field });
};

/** Per request, the file parts the storage is still writing or removing: each settles once its file is kept or gone. */
const storageWork = new WeakMap<Request, Array<Promise<void>>>();

/**
 * Streams each file part straight to a temporary file (never whole in memory), counting its bytes
 * against its own field's limit and keeping its first bytes; an oversize part is cut off at once.
 */
class CheckedDiskStorage implements multer.StorageEngine {
  constructor(private readonly store: FileStore) {}

  _handleFile(req: Request, file: Express.Multer.File, callback: (error?: unknown, info?: Partial<Express.Multer.File>) => void): void {
    const rule = RULES[file.fieldname as UploadField];
    const tempPath = this.store.temp.newPath();
    const output = createWriteStream(tempPath, { flags: "wx" });
    let size = 0;
    let header = Buffer.alloc(0);
    const hash = createHash("sha256");
    let settled = false;
    let workDone = () => {};
    storageWork.set(req, [...(storageWork.get(req) ?? []), new Promise((resolve) => (workDone = resolve))]);
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      file.stream.unpipe(output);
      file.stream.resume();
      // Removed once closed: a stream destroyed while still opening creates its file after that.
      output.once("close", () => {
        void rm(tempPath, { force: true }).finally(() => {
          workDone();
          callback(error);
        });
      });
      output.destroy();
    };
    file.stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      hash.update(chunk);
      if (header.length < SNIFF_BYTES) header = Buffer.concat([header, chunk.subarray(0, SNIFF_BYTES - header.length)]);
      if (size > rule.maxBytes) fail(fileTooLarge(file.fieldname as UploadField));
    });
    file.stream.on("error", fail);
    // A part destroyed without an error (its form torn down) never ends: its file must go all the same.
    file.stream.on("close", () => {
      if (!file.stream.readableEnded) fail(new Error("Unexpected end of file part"));
    });
    output.on("error", fail);
    output.on("finish", () => {
      if (settled) return;
      settled = true;
      workDone();
      const received: ReceivedFile = {
        tempPath,
        size,
        header,
        extension: extensionOf(file.originalname),
        sha256: hash.digest("hex"),
        originalName: file.originalname,
      };
      callback(null, { path: tempPath, size, ...({ received } as object) });
    });
    file.stream.pipe(output);
  }

  _removeFile(_req: Request, file: Express.Multer.File, callback: (error: Error | null) => void): void {
    rm(file.path, { force: true }).then(() => callback(null), callback);
  }
}

const multerErrors: Record<string, [number, string, string]> = {
  LIMIT_PART_COUNT: [400, "too_many_parts", "The form has too many parts."],
  LIMIT_FILE_COUNT: [400, "too_many_parts", "The form has too many files."],
  LIMIT_FIELD_COUNT: [400, "too_many_parts", "The form has too many fields."],
  LIMIT_FIELD_KEY: [400, "field_too_long", "A field name is too long."],
  LIMIT_FIELD_VALUE: [400, "field_too_long", "A field value is too long."],
  LIMIT_UNEXPECTED_FILE: [400, "unexpected_file", "The form has a file this call does not take."],
  LIMIT_FILE_SIZE: [413, "file_too_large", "A file is too large."],
};

function toHttpError(error: unknown, req: Request): unknown {
  if (error instanceof HttpError) return error;
  if (error instanceof multer.MulterError) {
    const [status, code, message] = multerErrors[error.code] ?? [400, "malformed_multipart", "The form could not be read."];
    return new HttpError(status, code, message, error.field ? { [error.field]: `errors.${code}` } : undefined);
  }
  // busboy's own complaints (cut-off bodies, missing boundaries, malformed part headers), and a client
  // that dropped the connection mid-upload or let it time out: the client's failure, not the server's.
  if (req.destroyed || (error instanceof Error && /multipart|boundary|part header|end of form/i.test(error.message))) {
    return new HttpError(400, "malformed_multipart", "The form could not be read.");
  }
  return error;
}

/**
 * The files a request received, by field. A part still being written is only multer's placeholder
 * (no `received`): the storage removes that file itself if the form breaks.
 */
export function receivedFiles(req: Request): Partial<Record<UploadField, ReceivedFile>> {
  const files = (req.files ?? {}) as Record<string, Array<{ received?: ReceivedFile }>>;
  return Object.fromEntries(Object.entries(files).flatMap(([field, [file]]) => (file?.received ? [[field, file.received]] : [])));
}

const removeReceived = (req: Request) => Promise.allSettled(Object.values(receivedFiles(req)).map((file) => rm(file.tempPath, { force: true })));

/**
 * Parses a multipart form taking the given file fields. Whatever happens next, the temporary files
 * are removed when the response ends: a refused or failed upload leaves nothing behind. A form the
 * parser refuses is answered only once its files are gone.
 */
export function parseUpload(store: FileStore, fields: UploadField[]): RequestHandler {
  const upload = multer({
    storage: new CheckedDiskStorage(store),
    limits: {
      // Our storage enforces each field's own limit; this is busboy's backstop.
      fileSize: BOOK_FILE_MAX_BYTES + 1,
      // One more than the form takes, so a stray file is named as unexpected before the count trips.
      files: fields.length + 1,
      fields: 10,
      parts: 16,
      fieldSize: 64 * 1024,
      fieldNameSize: 64,
      headerPairs: 50,
    },
    fileFilter(_req, file, accept) {
      const field = file.fieldname as UploadField;
      if (!fields.includes(field)) return accept(new multer.MulterError("LIMIT_UNEXPECTED_FILE", file.fieldname));
      if (!RULES[field].extensions.includes(extensionOf(file.originalname))) return accept(fileInvalidType(field));
      accept(null, true);
    },
  }).fields(fields.map((name) => ({ name, maxCount: 1 })));

  return (req, res, next) => {
    res.on("close", () => void removeReceived(req));
    upload(req, res, (error?: unknown) => {
      if (!error) return next();
      // multer may give up on a broken form while the storage is still writing (or removing) a part:
      // wait for that, so no temporary file appears after the refusal.
      void Promise.allSettled(storageWork.get(req) ?? [])
        .then(() => removeReceived(req))
        .then(() => next(toHttpError(error, req)));
    });
  };
}
