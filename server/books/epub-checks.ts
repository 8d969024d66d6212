import { type CageLimits, type CagedProgram, CagedJobError, bundledChild, runCaged } from "../system/caged-job.ts";
import { logger } from "../system/logger.ts";
import type { EpubCheckJob } from "./epub-check-process.ts";
import type { EpubLimits, EpubVerdict } from "./epub-documents.ts";

export const EPUB_CHECK_PROCESS = bundledChild("server/books/epub-check-process.ts", import.meta.url.endsWith(".ts"));

/**
 * The cage of one EPUB's check: a 50 MB book of a hundred chapters is read in about a second
 * (bench/epub-checks.ts); past these caps the book is taken for one that cannot be read safely.
 */
export const EPUB_CHECK_LIMITS: CageLimits = { timeoutMs: 30_000, cpuSeconds: 20, heapMegabytes: 256, memoryMegabytes: 512 };

/**
 * An uploaded EPUB judged in a cage (epub-check-process.ts, docs/decisions/0095): its verdict, or
 * `too-complex` when the check could not finish within the caps. A server stopping mid-check throws.
 */
export async function checkEpub(
  path: string,
  limits: EpubLimits,
  cage: CageLimits = EPUB_CHECK_LIMITS,
  program: CagedProgram = EPUB_CHECK_PROCESS,
): Promise<EpubVerdict | { unsafe: "too-complex"; detail: string }> {
  try {
    const { answer } = await runCaged<EpubCheckJob, EpubVerdict>(program, { path, limits }, cage);
    return answer;
  } catch (error) {
    if (!(error instanceof CagedJobError) || error.failure === "stopped") throw error;
    logger.warn({ component: "epub-checks", failure: error.failure, reason: error.message }, "an uploaded EPUB could not be checked within its cage");
    return { unsafe: "too-complex", detail: `its check ended: ${error.failure}` };
  }
}
