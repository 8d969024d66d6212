// Bundles the server for production: `node dist/server/main.js` (dependencies stay in node_modules).
// Modules the server imports only when needed (the bucket's driver) go to chunks of their own, with the
// packages they import: in one file, esbuild would hoist those imports and load them at start.
// Chunks of an earlier build are left in place: a server still running it may yet import them.
// The Word converter's cage is an entry of its own (dist/server/reading/word-view-process.js), which the
// server forks by path (server/system/caged-job.ts; docs/decisions/0051).
import { build } from "esbuild";

await build({
  entryPoints: ["server/main.ts", "server/reading/word-view-process.ts"],
  outbase: "server",
  outdir: "dist/server",
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  sourcemap: true,
  // server/system/caged-job.ts finds the Word converter's entry below it.
  define: { SERVER_BUNDLE_FOLDER: JSON.stringify("dist") },
  logLevel: "warning",
});
