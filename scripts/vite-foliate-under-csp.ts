import type { Plugin } from "vite";

/**
 * foliate-js (the EPUB reader, docs/decisions/0097) as Plume runs it: under the app's unchanged
 * Content-Security-Policy, with no script of a book ever running.
 *
 * As published it shows each chapter in an iframe sandboxed with `allow-same-origin allow-scripts`
 * (for a WebKit bug: its events reach no listener otherwise) loaded from a `blob:` URL, and leaves
 * scripts to the page's CSP. Plume's CSP forbids `blob:` frames and inline `<style>`, so:
 * - the frame's sandbox is `allow-same-origin` alone: the reader lays the chapter out from this page,
 *   and nothing inside the frame may run;
 * - a chapter goes in by `srcdoc` (the reader's sections give their markup, client/src/features/reader/foliate-book.ts);
 * - foliate's own styles, in its shadow roots and in each chapter, are constructed stylesheets,
 *   which the CSP does not govern, instead of `<style>` elements it refuses;
 * - the EPUB loader tells which `blob:` URL holds which resource, so the reader can put a chapter's
 *   markup and stylesheets in by hand.
 * Each change names the exact text it replaces: a foliate-js that no longer has it fails the build
 * instead of shipping a reader that runs books' scripts.
 */
export const FOLIATE_PATCHES: Record<string, ReadonlyArray<readonly [string, string]>> = {
  "paginator.js": [
    [
      "this.#iframe.setAttribute('sandbox', 'allow-same-origin allow-scripts')",
      "this.#iframe.setAttribute('sandbox', 'allow-same-origin')",
    ],
    ["this.#iframe.src = src", "this.#iframe.srcdoc = src"],
    ["this.#root.innerHTML = `<style>", "this.#root.adoptedStyleSheets = [plumeSheetOf(`"],
    ['</style>\n        <div id="top">', '`)]\n        this.#root.innerHTML = `<div id="top">'],
    [
      "const $styleBefore = doc.createElement('style')\n                    doc.head.prepend($styleBefore)\n                    const $style = doc.createElement('style')\n                    doc.head.append($style)",
      "const $styleBefore = new doc.defaultView.CSSStyleSheet()\n                    const $style = new doc.defaultView.CSSStyleSheet()\n                    doc.adoptedStyleSheets = [$styleBefore, $style]",
    ],
    [
      "$beforeStyle.textContent = beforeStyle\n            $style.textContent = style\n        } else $style.textContent = styles",
      "$beforeStyle.replaceSync(beforeStyle ?? '')\n            $style.replaceSync(style ?? '')\n        } else $style.replaceSync(styles ?? '')",
    ],
  ],
  "fixed-layout.js": [
    ["iframe.setAttribute('sandbox', 'allow-same-origin allow-scripts')", "iframe.setAttribute('sandbox', 'allow-same-origin')"],
    ["iframe.src = src", "iframe.srcdoc = src"],
  ],
  "epub.js": [
    [
      "const url = URL.createObjectURL(new Blob([newData], { type: newType }))",
      "const url = URL.createObjectURL(new Blob([newData], { type: newType }))\n        this.eventTarget.dispatchEvent(new CustomEvent('plume-url', { detail: { url, name: href, type: newType, data: newData } }))",
    ],
  ],
};

/** Its one helper, put at the top of paginator.js. */
const SHEET_OF = "const plumeSheetOf = css => { const sheet = new CSSStyleSheet(); sheet.replaceSync(css); return sheet }\n";

/** The file's code with Plume's changes, or an error naming the first that no longer applies. */
export function patchFoliate(file: string, code: string): string {
  let patched = code;
  for (const [from, to] of FOLIATE_PATCHES[file] ?? []) {
    const at = patched.indexOf(from);
    if (at < 0 || patched.indexOf(from, at + from.length) >= 0) {
      throw new Error(`foliate-js/${file} changed: "${from.slice(0, 60)}…" is not found exactly once (scripts/vite-foliate-under-csp.ts)`);
    }
    patched = patched.slice(0, at) + to + patched.slice(at + from.length);
  }
  return file === "paginator.js" ? SHEET_OF + patched : patched;
}

export function foliateUnderCsp(): Plugin {
  return {
    name: "plume-foliate-under-csp",
    enforce: "pre",
    transform(code, id) {
      const match = /\/node_modules\/foliate-js\/([a-z-]+\.js)$/.exec(id.split("?")[0]!);
      if (!match || !FOLIATE_PATCHES[match[1]!]) return null;
      return { code: patchFoliate(match[1]!, code), map: null };
    },
  };
}
