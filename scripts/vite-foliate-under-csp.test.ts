import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { FOLIATE_PATCHES, patchFoliate } from "./vite-foliate-under-csp.ts";

const foliateDir = dirname(createRequire(import.meta.url).resolve("foliate-js/view.js"));
const source = (file: string) => readFileSync(join(foliateDir, file), "utf8");

describe("foliate-js as Plume builds it (docs/decisions/0097)", () => {
  it("sandboxes every frame a book is shown in without allow-scripts, and loads it by srcdoc rather than a blob: URL", () => {
    for (const file of ["paginator.js", "fixed-layout.js"]) {
      const patched = patchFoliate(file, source(file));
      const sandboxes = [...patched.matchAll(/setAttribute\('sandbox', '([^']*)'\)/g)].map((match) => match[1]);
      expect(sandboxes).toEqual(["allow-same-origin"]);
      expect(patched).not.toMatch(/iframe\.src = /);
      expect(patched).toMatch(/iframe\.srcdoc = src/);
    }
  });

  it("puts no <style> element anywhere the CSP would refuse it", () => {
    const patched = patchFoliate("paginator.js", source("paginator.js"));
    expect(patched).not.toMatch(/<style>|createElement\('style'\)|\.textContent = (before)?[sS]tyle/);
  });

  it("fails loudly when foliate-js no longer has a text it changes", () => {
    expect(() => patchFoliate("paginator.js", source("paginator.js").replace("allow-same-origin allow-scripts", "allow-scripts allow-same-origin"))).toThrow(/paginator\.js changed/);
    expect(Object.keys(FOLIATE_PATCHES).sort()).toEqual(["epub.js", "fixed-layout.js", "paginator.js"]);
  });
});
