import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Request } from "express";
import { FIRST_SCREEN_TEXTS, type InterfaceLanguage, isInterfaceLanguage } from "../../shared/languages.ts";
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
 * A page's own head (server/pages/): its status, the language it is written in, and the tags that
 * replace the app's generic <title> and description. A handler before the app's page leaves it in
 * `res.locals.pageHead`.
 */
export interface PageHead {
  status: number;
  language: InterfaceLanguage;
  tags: string;
}

const GENERIC_HEAD = /[ \t]*<title>[\s\S]*?<\/title>[ \t]*\n?|[ \t]*<meta\s+name="description"[\s\S]*?>[ \t]*\n?/g;
const HTML_LANG = /<html lang="[^"]*"/;

/**
 * The app's page for a request: index.html with the texts of the reader's likely language preloaded
 * beside the app's scripts, and the chunk of the screen the path shows when it has one of its own,
 * so the first render does not wait for one more round trip to fetch them. Each page is made once
 * (language × screen); a wrong guess only costs a fetch the app then does not use. A page with a head
 * of its own is the same page with its head in place of the generic title and description, in its
 * language: two string joins per request.
 */
export function appPages(folder: string): (req: Request, head?: PageHead) => string {
  const html = readFileSync(join(folder, "index.html"), "utf8");
  const manifest = readManifest(folder);
  const texts = firstScreenTextChunks(manifest);
  const screens = OWN_CHUNK_SCREENS.map((screen) => ({ ...screen, chunks: screenChunks(manifest, screen.source, html) }));
  const made = new Map<string, { whole: string; before: string; after: string }>();
  const pageOf = (language: InterfaceLanguage, screen: (typeof screens)[number] | undefined) => {
    const key = `${language} ${screen?.source ?? ""}`;
    let page = made.get(key);
    if (!page) {
      const preloads = modulePreloads([texts[language], ...(screen?.chunks ?? [])]);
      const whole = preloads ? html.replace("</head>", `${preloads}  </head>`) : html;
      const headless = whole.replace(HTML_LANG, `<html lang="${language}"`).replace(GENERIC_HEAD, "");
      const at = headless.indexOf("</head>");
      page = { whole, before: headless.slice(0, at), after: headless.slice(at) };
      made.set(key, page);
    }
    return page;
  };
  return (req, head) => {
    const screen = screens.find(({ shownAt }) => shownAt(req.path));
    if (!head) return pageOf(likelyLanguage(req), screen).whole;
    const { before, after } = pageOf(head.language, screen);
    return `${before}  ${head.tags}\n  ${after}`;
  };
}
