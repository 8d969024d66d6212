// Bundles the server for production: `node dist/server/main.js` (dependencies stay in node_modules).
// Chunks of an earlier build are left in place: a server still running it may yet import them.
// The cages' children are entries of their own (dist/server/reading/word-view-process.js,
// dist/server/books/text-fingerprint-process.js), which the server forks by path (server/system/caged-job.ts;
// docs/decisions/0051, 0091).
import { build } from "esbuild";
import { CAGE_ENTRIES, serverBundleOptions } from "./server-bundle-options.mjs";

await build({
  ...serverBundleOptions("dist"),
  entryPoints: ["server/main.ts", ...CAGE_ENTRIES],
  outbase: "server",
  outdir: "dist/server",
  sourcemap: true,
});
