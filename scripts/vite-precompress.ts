import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

// Not .html: the server makes the app's page per request (server/http/app-page.ts).
const TEXT_FILE = /\.(js|mjs|css|svg|json|txt|webmanifest)$/;
/** Below this, the headers of an encoded response weigh about as much as the bytes saved. */
const MIN_BYTES = 1024;
/** Level 11 takes about 2.5 times as long for files about 1.5 % smaller, and makes builds slow enough to warn. */
const BROTLI_QUALITY = 10;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The sibling files written beside each text file; serveBuiltClient serves them as `br` and `gzip`. */
const COMPRESSORS = [
  {
    suffix: ".br",
    compress: (data: Buffer) =>
      brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
  },
  { suffix: ".gz", compress: (data: Buffer) => gzipped(data, { level: constants.Z_BEST_COMPRESSION }) },
];

/** Writes the compressed siblings of one file, skipping any that would not be smaller. */
async function precompressFile(path: string): Promise<void> {
  const data = await readFile(path);
  if (data.length < MIN_BYTES) return;
  for (const { suffix, compress } of COMPRESSORS) {
    const compressed = await compress(data);
    if (compressed.length < data.length) await writeFile(`${path}${suffix}`, compressed);
  }
}

/** Compresses every text file under a built folder once, at high levels no per-request compression could afford. */
export async function precompressFolder(folder: string): Promise<void> {
  const names = await readdir(folder, { recursive: true });
  await Promise.all(names.filter((name) => TEXT_FILE.test(name)).map((name) => precompressFile(join(folder, name))));
}

/** Vite build plugin: precompresses the written app, so the server never compresses a static file per request. */
export function precompress(): Plugin {
  return {
    name: "plume:precompress",
    apply: "build",
    async writeBundle({ dir }) {
      if (dir) await precompressFolder(dir);
    },
  };
}
