// The child's side of a caged job (server/system/caged-job.ts): takes the one job the parent sends,
// answers it (or its error) with the process's peak resident memory and CPU time, and exits. Plain JavaScript so
// that a child started by path with no loader (cover-drawing-process.mjs) and a bundled one
// (word-view-process.ts) share it.

/** Answers the job's error and exits: for failures outside the job's own promise (a read in a callback). */
export function failCagedJob(error) {
  process.send?.({ error: error instanceof Error ? error.message : String(error) }, () => process.exit(1));
}

/**
 * Runs `work` on the job the parent sends. The parent may die without a word: then this process ends
 * too, instead of finishing for no one.
 * @template Job, Answer
 * @param {(job: Job) => Promise<Answer>} work
 */
export function serveCagedJob(work) {
  process.on("disconnect", () => process.exit(0));
  process.once("message", (job) => {
    work(job).then(
      (answer) => {
        // maxRSS is in KiB, CPU times in microseconds: the figures the parent logs and the benchmarks quote.
        const usage = process.resourceUsage();
        const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
        process.send?.({ answer, maxRssBytes: usage.maxRSS * 1024, cpuSeconds }, () => process.exit(0));
      },
      failCagedJob,
    );
  });
}
