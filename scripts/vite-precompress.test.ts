import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it, onTestFinished } from "vitest";
import { precompressFolder } from "./vite-precompress.ts";

function folderWith(files: Record<string, string | Buffer>) {
  const folder = mkdtempSync(join(tmpdir(), "plume-precompress-"));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(folder, name, ".."), { recursive: true });
    writeFileSync(join(folder, name), content);
  }
  return folder;
}

describe("precompressFolder", () => {
  it("writes a brotli and a gzip sibling of every text file, each decoding to the original", async () => {
    const script = "export const shelf = ['a book', 'another book'];\n".repeat(60);
    const styles = ".card { color: #1e5a66; }\n".repeat(80);
    const folder = folderWith({ "assets/app-1a2b.js": script, "assets/app-3c4d.css": styles, "index.html": `<!doctype html>${"<p>Plume</p>".repeat(100)}` });
    await precompressFolder(folder);
    for (const [name, original] of [["assets/app-1a2b.js", script], ["assets/app-3c4d.css", styles]] as const) {
      expect(brotliDecompressSync(readFileSync(join(folder, `${name}.br`))).toString()).toBe(original);
      expect(gunzipSync(readFileSync(join(folder, `${name}.gz`))).toString()).toBe(original);
    }
    // The server makes the page per request, so a compressed copy would never be sent.
    expect(existsSync(join(folder, "index.html.br"))).toBe(false);
  });

  it("leaves alone small files, images, and files compression would not shrink", async () => {
    const folder = folderWith({
      "robots.txt": "User-agent: *\nAllow: /\n",
      "assets/cover-9f8e.png": Buffer.alloc(4096, 1),
      "assets/noise-7d6c.js": randomBytes(4096),
    });
    await precompressFolder(folder);
    for (const name of ["robots.txt", "assets/cover-9f8e.png", "assets/noise-7d6c.js"]) {
      expect(existsSync(join(folder, `${name}.br`)), name).toBe(false);
      expect(existsSync(join(folder, `${name}.gz`)), name).toBe(false);
    }
  });
});
