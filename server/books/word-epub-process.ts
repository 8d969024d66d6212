// The cage's child that makes the EPUB of a Word book (docs/decisions/0096): the same sanitized HTML as
// its reading view (server/reading/word-view.ts), written as an EPUB 3 by word-epub.ts, the cover and any
// WebP image turned into JPEG or PNG by sharp, which e-readers show. The file may be hostile: the server
// kills this process past its time, CPU or memory cap (server/system/caged-job.ts). TypeScript bundled by esbuild: at its first start
// from the sources (server/system/child-bundle.ts), by scripts/build-server.mjs for production.
import { readFile } from "node:fs/promises";
import sharp from "sharp";
import type { BookLanguage } from "../../shared/books.ts";
import { wordFileHtml } from "../reading/word-view.ts";
import { serveCagedJob } from "../system/caged-job-child.mjs";
import { type EpubImage, type EpubSummary, writeWordEpub } from "./word-epub.ts";

export interface WordEpubJob {
  path: string;
  kind: "docx" | "doc";
  /** Where the EPUB goes (a temporary file the server then stores). */
  outputPath: string;
  /** The book's stored cover at its widest, if it has one. */
  coverPath: string | null;
  title: string;
  creator: string | null;
  language: BookLanguage;
  identifier: string;
  /** ISO 8601. */
  modified: string;
}

export type WordEpubAnswer = EpubSummary;

/** A 16 MB image of a book may declare gigapixel dimensions: refused before it is decoded. */
const MAX_INPUT_PIXELS = 40_000_000;

sharp.cache(false);

/** An image of a type e-readers may lack (WebP) as PNG, which keeps its transparency; null if it does not decode. */
async function portableImage(data: Buffer): Promise<EpubImage | null> {
  try {
    return { mediaType: "image/png", data: await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" }).png().toBuffer() };
  } catch {
    return null;
  }
}

serveCagedJob<WordEpubJob, WordEpubAnswer>(async (job) => {
  const html = await wordFileHtml(job.path, job.kind, { noteLinks: true });
  // Plume's covers are WebP; an e-reader's library shows JPEG everywhere.
  const cover = job.coverPath ? { mediaType: "image/jpeg" as const, data: await sharp(await readFile(job.coverPath)).jpeg({ quality: 85 }).toBuffer() } : null;
  return writeWordEpub(job.outputPath, {
    html,
    cover,
    metadata: { title: job.title, creator: job.creator, language: job.language, identifier: job.identifier, modified: new Date(job.modified) },
    convertImage: portableImage,
  });
});
