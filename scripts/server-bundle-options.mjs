// The esbuild options every bundle of the server shares: production's (scripts/build-server.mjs) and the
// benchmarks' (bench/lib/server-bundle.ts), so that a benchmark starts the server as production builds it.
// Modules the server imports only when needed (the bucket's driver) go to chunks of their own, with the
// packages they import: in one file, esbuild would hoist those imports and load them at start.

/**
 * @param {string} bundleFolder the folder below the project root that the sources are laid out in,
 *   written into the bundle: server/system/caged-job.ts forks the Word converter's entry below it
 *   (docs/decisions/0051, 0084).
 */
export const serverBundleOptions = (bundleFolder) => ({
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  platform: /** @type {const} */ ("node"),
  target: "node20",
  format: /** @type {const} */ ("esm"),
  packages: /** @type {const} */ ("external"),
  logLevel: /** @type {const} */ ("warning"),
  define: { SERVER_BUNDLE_FOLDER: JSON.stringify(bundleFolder) },
});

/**
 * The cages' children a bundled server forks by their path below its bundle's folder
 * (server/system/caged-job.ts, SERVER_BUNDLE_FOLDER): the Word converter (docs/decisions/0051) and the
 * text fingerprint of an upload (docs/decisions/0091) and the EPUB of a Word book (docs/decisions/0096). Every bundle of a server holds them.
 */
export const CAGE_ENTRIES = ["server/reading/word-view-process.ts", "server/books/text-fingerprint-process.ts", "server/books/word-epub-process.ts", "server/books/epub-check-process.ts"];
