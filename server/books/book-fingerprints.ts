import type { BookFileType } from "../../shared/books.ts";
import { type CageLimits, type CagedProgram, CagedJobError, bundledChild, runCaged } from "../system/caged-job.ts";
import { logger } from "../system/logger.ts";
import type { FingerprintJob } from "./text-fingerprint-process.ts";
import type { TextFingerprint } from "./text-fingerprints.ts";

const FINGERPRINT_PROCESS = bundledChild("server/books/text-fingerprint-process.ts", import.meta.url.endsWith(".ts"));

/**
 * The cage of one text extraction: a 50 MB PDF of a thousand pages reads in a few seconds; past these
 * caps the file is taken for one whose text cannot be read (docs/decisions/0091).
 */
export const FINGERPRINT_LIMITS: CageLimits = { timeoutMs: 30_000, cpuSeconds: 20, heapMegabytes: 256, memoryMegabytes: 512 };

/**
 * The fingerprint of a book file on disk, read in a cage (text-fingerprint-process.ts), or null when
 * its text could not be read within the caps (a damaged or hostile file): such a
 * book is published unfingerprinted, like a scanned PDF (its row in book_fingerprints has neither a
 * signature nor a word count), and only notices can tell it is a copy.
 */
export async function fingerprintFile(
  path: string,
  kind: BookFileType,
  limits: CageLimits = FINGERPRINT_LIMITS,
  // The benchmark passes the child as production bundles it (bench/fingerprints.ts).
  program: CagedProgram = FINGERPRINT_PROCESS,
): Promise<TextFingerprint | null> {
  try {
    const { answer } = await runCaged<FingerprintJob, TextFingerprint>(program, { path, kind }, limits);
    return answer;
  } catch (error) {
    if (!(error instanceof CagedJobError)) throw error;
    logger.warn({ component: "fingerprints", failure: error.failure, reason: error.message }, "a book's text could not be read for its fingerprint");
    return null;
  }
}
