// The cage's child that judges an uploaded EPUB and reads its package (docs/decisions/0095): every
// XML part of the book parsed, which a crafted book could make slow or large, so never on the
// server's event loop. The server kills this process past its time, CPU or memory cap
// (server/system/caged-job.ts). TypeScript bundled by esbuild: at its first start
// from the sources (server/system/child-bundle.ts), by scripts/build-server.mjs for production.
import { serveCagedJob } from "../system/caged-job-child.mjs";
import { type EpubLimits, type EpubVerdict, inspectEpub } from "./epub-documents.ts";

export interface EpubCheckJob {
  path: string;
  limits: EpubLimits;
}

serveCagedJob<EpubCheckJob, EpubVerdict>(({ path, limits }) => inspectEpub(path, limits));
