// Bundles the server for production: `node dist/server/main.js` (dependencies stay in node_modules).
// Chunks of an earlier build are left in place: a server still running it may yet import them.
// The Word converter's cage is an entry of its own (dist/server/reading/word-view-process.js), which the
// server forks by path (server/system/caged-job.ts; docs/decisions/0051).
import { build } from "esbuild";
import { serverBundleOptions } from "./server-bundle-options.mjs";

await build({
  ...serverBundleOptions("dist"),
  entryPoints: ["server/main.ts", "server/reading/word-view-process.ts"],
  outbase: "server",
  outdir: "dist/server",
  sourcemap: true,
});
