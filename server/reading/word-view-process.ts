// The cage's child that converts one Word book into its reading view (docs/decisions/0051): mammoth or
// word-extractor, the sanitizer and the pages, away from the server, which kills this process past its
// time or memory cap. The view is written gzipped to the path the server gives (a temporary file it then
// stores), not sent through IPC: a view with images runs to tens of megabytes. TypeScript bundled by esbuild: at its first start
// from the sources (server/system/child-bundle.ts), by scripts/build-server.mjs for production.
import { writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { serveCagedJob } from "../system/caged-job-child.mjs";
import { convertWordFile } from "./word-view.ts";

export interface WordViewJob {
  path: string;
  kind: "docx" | "doc";
  /** Where the view goes, as gzipped JSON (shared/reading.ts's WordView). */
  outputPath: string;
}

export interface WordViewAnswer {
  pageCount: number;
}

const gzipped = promisify(gzip);

serveCagedJob<WordViewJob, WordViewAnswer>(async ({ path, kind, outputPath }) => {
  const view = await convertWordFile(path, kind);
  await writeFile(outputPath, await gzipped(JSON.stringify(view)));
  return { pageCount: view.pages.length };
});
