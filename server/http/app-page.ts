import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Request } from "express";
import { FIRST_SCREEN_TEXTS, type InterfaceLanguage, isInterfaceLanguage } from "../../shared/languages.ts";
import { fetchPreloads, firstScreenReads } from "./first-screen-reads.ts";
import { likelyLanguage } from "./request-language.ts";

const firstScreenTextsFile = new RegExp(`/locales/${FIRST_SCREEN_TEXTS}/(\\w+)\\.json$`);

type Manifest = Record<string, { file: string; imports?: string[] }>;

function readManifest(folder: string): Manifest {
  const manifestFile = join(folder, ".vite", "manifest.json");
  return existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest) : {};
}

/**
 * The built chunk of each language's first-screen texts, from Vite's manifest
 * ("../shared/locales/first-screens/es.json" → "/assets/es-….js"); the other screens' texts come with them.
 */
function firstScreenTextChunks(manifest: Manifest): Partial<Record<InterfaceLanguage, string>> {
  const chunks: Partial<Record<InterfaceLanguage, string>> = {};
  for (const [source, { file }] of Object.entries(manifest)) {
    const language = firstScreenTextsFile.exec(source)?.[1];
    if (isInterfaceLanguage(language)) chunks[language] = `/${file}`;
  }
  return chunks;
}

/**
 * The first screens that come as chunks of their own beside the first script (client/src/App.tsx,
 * docs/decisions/0028), by the paths they are shown at: the page preloads the one it will show.
 */
const OWN_CHUNK_SCREENS = [
  { source: "src/features/site/landing-page.tsx", shownAt: (path: string) => path === "/" },
  { source: "src/features/books/book-page.tsx", shownAt: (path: string) => /^\/books\/[^/]+\/?$/.test(path) },
];

/** A screen's chunk and the chunks it imports, but those the page already loads (the first script). */
function screenChunks(manifest: Manifest, source: string, html: string): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  visit(source);
  return [...files].filter((file) => !html.includes(file)).map((file) => `/${file}`);
}

const modulePreloads = (files: Array<string | undefined>) =>
  files.flatMap((file) => (file ? [`  <link rel="modulepreload" crossorigin href="${file}">\n`] : [])).join("");

/**
 * A page's own head (server/pages/): its status, the language it is written in, the tags that
 * replace the app's generic <title> and description, and the API reads of its screen that only its
 * data names (a book's author, server/http/first-screen-reads.ts). A handler before the app's page
 * leaves it in `res.locals.pageHead`.
 */
export interface PageHead {
  status: number;
  language: InterfaceLanguage;
  tags: string;
  reads?: readonly string[];
}

const GENERIC_HEAD = /[ \t]*<title>[\s\S]*?<\/title>[ \t]*\n?|[ \t]*<meta\s+name="description"[\s\S]*?>[ \t]*\n?/g;
const HTML_LANG = /<html lang="[^"]*"/;
const STYLESHEET_LINK = /[ \t]*<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">\n?/;

/**
 * index.html with the app's stylesheet written into it, last in its head (after the scripts and
 * preloads, which the browser then finds in the page's first bytes), and the CSP source that allows
 * it: a linked stylesheet held the first render back by one more request (docs/decisions/0080).
 */
function inlineStylesheet(folder: string, html: string): { html: string; styleSources: string[] } {
  const link = STYLESHEET_LINK.exec(html);
  const css = link && readFileSync(join(folder, link[1]!), "utf8");
  // A stylesheet that would end the element early stays linked.
  if (!link || !css || css.includes("</style")) return { html, styleSources: [] };
  const withoutLink = html.replace(link[0], "");
  return {
    html: withoutLink.replace("</head>", () => `  <style>${css}</style>\n  </head>`),
    styleSources: [`'sha256-${createHash("sha256").update(css).digest("base64")}'`],
  };
}

/** The app's page for a request, and the Content-Security-Policy sources its inline stylesheet needs. */
export interface AppPages {
  pageFor(req: Request, head?: PageHead): string;
  styleSources: string[];
}

/**
 * The app's page for a request: index.html with its stylesheet inline, the texts of the reader's
 * likely language preloaded beside the app's scripts, the chunk of the screen the path shows when it
 * has one of its own, and the API reads that screen starts with, so the first render waits for no
 * further round trip. The page is made once per language and screen; a wrong guess only costs a fetch
 * the app then does not use. Per request come the reads (a catalog's search, a book) and a page's own
 * head in place of the generic title and description, in its language: string joins.
 */
export function appPages(folder: string): AppPages {
  const { html, styleSources } = inlineStylesheet(folder, readFileSync(join(folder, "index.html"), "utf8"));
  const manifest = readManifest(folder);
  const texts = firstScreenTextChunks(manifest);
  const screens = OWN_CHUNK_SCREENS.map((screen) => ({ ...screen, chunks: screenChunks(manifest, screen.source, html) }));
  const made = new Map<string, { generic: string; before: string; after: string }>();
  const pageOf = (language: InterfaceLanguage, screen: (typeof screens)[number] | undefined) => {
    const key = `${language} ${screen?.source ?? ""}`;
    let page = made.get(key);
    if (!page) {
      const preloads = modulePreloads([texts[language], ...(screen?.chunks ?? [])]);
      // Preloads go first in the head, before the stylesheet: the browser asks for them from the page's first bytes.
      const at = html.indexOf("</head>");
      const styleAt = html.lastIndexOf("<style>", at);
      const split = styleAt < 0 ? at : html.lastIndexOf("\n", styleAt) + 1;
      const generic = `${html.slice(0, split)}${preloads}`;
      const before = generic.replace(HTML_LANG, `<html lang="${language}"`).replace(GENERIC_HEAD, "");
      page = { generic, before, after: html.slice(split) };
      made.set(key, page);
    }
    return page;
  };
  const pageFor = (req: Request, head?: PageHead) => {
    const screen = screens.find(({ shownAt }) => shownAt(req.path));
    const reads = fetchPreloads(firstScreenReads(req, head?.reads));
    if (!head) {
      const { generic, after } = pageOf(likelyLanguage(req), screen);
      return `${generic}${reads}${after}`;
    }
    const { before, after } = pageOf(head.language, screen);
    return `${before}  ${head.tags}\n${reads}${after}`;
  };
  return { pageFor, styleSources };
}
