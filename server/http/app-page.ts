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

/** The language the app is about to pick: the reader's stored choice (mirrored in a cookie), else the browser's. */
export function likelyLanguage(req: Request): InterfaceLanguage {
  const chosen = languageCookie.exec(req.headers.cookie ?? "")?.[1];
  if (isInterfaceLanguage(chosen)) return chosen;
  const accepted = req.acceptsLanguages(...INTERFACE_LANGUAGES);
  return isInterfaceLanguage(accepted || undefined) ? (accepted as InterfaceLanguage) : DEFAULT_LANGUAGE;
}

/**
 * The app's page for a request: index.html with the texts of the reader's likely language preloaded
 * beside the app's scripts, so the first render does not wait for one more round trip to fetch them.
 * The three pages are made once; a wrong guess only costs a fetch the app then does not use.
 */
export function appPages(folder: string): (req: Request) => string {
  const html = readFileSync(join(folder, "index.html"), "utf8");
  const chunks = firstScreenTextChunks(folder);
  const pages = new Map(
    INTERFACE_LANGUAGES.map((language) => {
      const chunk = chunks[language];
      return [language, chunk ? html.replace("</head>", `  <link rel="modulepreload" crossorigin href="${chunk}">\n  </head>`) : html];
    }),
  );
  return (req) => pages.get(likelyLanguage(req)) ?? html;
}
