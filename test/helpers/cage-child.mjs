// A caged job's child that misbehaves on request, for server/system/caged-job.test.ts: each job names
// what it does, so that every way a hostile file can hurt a converter is tried on the cage itself.
import { writeFileSync } from "node:fs";
import { serveCagedJob } from "../../server/system/caged-job-child.mjs";

const kept = [];

serveCagedJob(async ({ behaviour, pidFile, value }) => {
  if (pidFile) writeFileSync(pidFile, String(process.pid));
  switch (behaviour) {
    case "answer":
      return { doubled: value * 2 };
    case "throw":
      throw new Error(`this file is not a book: ${value}`);
    case "loop":
      for (;;);
    case "heap":
      // A sector chain that loops: an array that never stops growing, as word-extractor's did.
      for (let id = 0; ; id += 1) kept.push({ id, next: id + 1 });
    case "buffers":
      // Memory outside the JavaScript heap (an unpacked zip part), which the heap cap does not see.
      for (;;) {
        kept.push(Buffer.alloc(16 * 1024 * 1024, 1));
        await new Promise((resolve) => setImmediate(resolve));
      }
    case "crash":
      process.exit(3);
  }
  throw new Error(`unknown behaviour ${behaviour}`);
});
