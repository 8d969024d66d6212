import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Request } from "express";
import {
  DEFAULT_LANGUAGE,
  FIRST_SCREEN_TEXTS,
  INTERFACE_LANGUAGES,
  type InterfaceLanguage,
  isInterfaceLanguage,
  LANGUAGE_COOKIE,
} from "../../shared/languages.ts";
import { LANGUAGE_PARAM } from "../../shared/page-meta.ts";

const languageCookie = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=(\\w+)`);

const firstScreenTextsFile = new RegExp(`/locales/${FIRST_SCREEN_TEXTS}/(\\w+)\\.json$`);

/**
 * The built chunk of each language's first-screen texts, from Vite's manifest
 * ("../shared/locales/first-screens/es.json" → "/assets/es-….js"); the other screens' texts come with them.
 */
function firstScreenTextChunks(folder: string): Partial<Record<InterfaceLanguage, string>> {
  const manifestFile = join(folder, ".vite", "manifest.json");
  if (!existsSync(manifestFile)) return {};
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, { file: string }>;
  const chunks: Partial<Record<InterfaceLanguage, string>> = {};
  for (const [source, { file }] of Object.entries(manifest)) {
    const language = firstScreenTextsFile.exec(source)?.[1];
    if (isInterfaceLanguage(language)) chunks[language] = `/${file}`;
  }
  return chunks;
}

/**
 * The language the app is about to pick: the one the address names (`?lang=es`, docs/decisions/0028),
 * else the reader's stored choice (mirrored in a cookie), else the browser's.
 */
export function likelyLanguage(req: Request): InterfaceLanguage {
  const addressed = req.query[LANGUAGE_PARAM];
  if (typeof addressed === "string" && isInterfaceLanguage(addressed)) return addressed;
  const chosen = languageCookie.exec(req.headers.cookie ?? "")?.[1];
  if (isInterfaceLanguage(chosen)) return chosen;
  const accepted = req.acceptsLanguages(...INTERFACE_LANGUAGES);
  return isInterfaceLanguage(accepted || undefined) ? (accepted as InterfaceLanguage) : DEFAULT_LANGUAGE;
}

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

const GENERIC_HEAD = /[ \t]*<title>[\s\S]*?<\/title>\s*|[ \t]*<meta\s+name="description"[\s\S]*?>\s*/g;
const HTML_LANG = /<html lang="[^"]*"/;

/**
 * The app's page for a request: index.html with the texts of the reader's likely language preloaded
 * beside the app's scripts, so the first render does not wait for one more round trip to fetch them.
 * The three pages are made once; a wrong guess only costs a fetch the app then does not use. A page
 * with a head of its own is the same page with its head in place of the generic title and
 * description, in its language: two string joins per request.
 */
export function appPages(folder: string): (req: Request, head?: PageHead) => string {
  const html = readFileSync(join(folder, "index.html"), "utf8");
  const chunks = firstScreenTextChunks(folder);
  const pageIn = (language: InterfaceLanguage) => {
    const chunk = chunks[language];
    return chunk ? html.replace("</head>", `  <link rel="modulepreload" crossorigin href="${chunk}">\n  </head>`) : html;
  };
  const pages = new Map(INTERFACE_LANGUAGES.map((language) => [language, pageIn(language)]));
  const headless = new Map(
    INTERFACE_LANGUAGES.map((language) => {
      const page = pageIn(language).replace(HTML_LANG, `<html lang="${language}"`).replace(GENERIC_HEAD, "");
      const at = page.indexOf("</head>");
      return [language, { before: page.slice(0, at), after: page.slice(at) }];
    }),
  );
  return (req, head) => {
    if (!head) return pages.get(likelyLanguage(req)) ?? html;
    const { before, after } = headless.get(head.language)!;
    return `${before}  ${head.tags}\n  ${after}`;
  };
}
