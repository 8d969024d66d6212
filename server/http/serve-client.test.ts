import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import request from "supertest";
import { describe, expect, it, onTestFinished } from "vitest";
import { precompressFolder } from "../../scripts/vite-precompress.ts";
import { securityHeaders } from "../security/security-headers.ts";
import { serveBuiltClient } from "./serve-client.ts";

const INDEX_HTML = "<!doctype html><html><head><title>Plume</title></head><body></body></html>";
/** Large enough for the build to precompress it. */
const BIG_SCRIPT = "console.log('a line of the app');\n".repeat(100);

function builtFolder(parent = tmpdir()) {
  const folder = mkdtempSync(join(parent, "plume-client-"));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  mkdirSync(join(folder, "assets"));
  writeFileSync(join(folder, "index.html"), INDEX_HTML);
  writeFileSync(join(folder, "assets", "app-abc123.js"), "console.log(1)");
  writeFileSync(join(folder, "assets", "big-def456.js"), BIG_SCRIPT);
  mkdirSync(join(folder, ".vite"));
  const manifest = Object.fromEntries(
    ["en", "es", "fr"].flatMap((language) => [
      [`../shared/locales/first-screens/${language}.json`, { file: `assets/${language}-x1.js`, isDynamicEntry: true }],
      [`../shared/locales/other-screens/${language}.json`, { file: `assets/${language}-later.js`, isDynamicEntry: true }],
    ]),
  );
  writeFileSync(join(folder, ".vite", "manifest.json"), JSON.stringify(manifest));
  return folder;
}

function appServing(folder: string) {
  const app = express();
  app.use(...serveBuiltClient(folder));
  return app;
}

const builtClient = () => appServing(builtFolder());

/** A build as `vite build` leaves it: text files with their .br and .gz siblings. */
async function precompressedClient(indexHtml = INDEX_HTML, parent?: string) {
  const folder = builtFolder(parent);
  writeFileSync(join(folder, "index.html"), indexHtml);
  await precompressFolder(folder);
  return appServing(folder);
}

describe("serveBuiltClient", () => {
  it("serves hashed assets with a year of immutable caching", async () => {
    const response = await request(builtClient()).get("/assets/app-abc123.js").expect(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  // Its status is page-heads.ts's to give (404 for a path no screen shows): this serves the page as told.
  it("answers every other path with the app, revalidated each time", async () => {
    for (const path of ["/", "/catalog", "/edit-book/3", "/no/such/page"]) {
      const response = await request(builtClient()).get(path).expect(200);
      expect(response.text).toContain("<title>Plume</title>");
      expect(response.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("leaves a file missing from assets/ to the handlers after it, never answering it with the app", async () => {
    const response = await request(builtClient()).get("/assets/app-gone.js").expect(404);
    expect(response.text).not.toContain("<title>Plume</title>");
  });

  it("never serves files outside its folder", async () => {
    await request(builtClient()).get("/../package.json").expect(200).expect(/<title>Plume<\/title>/);
    await request(builtClient()).get("/%2e%2e/%2e%2e/etc/passwd").expect((response) => {
      expect(response.text).not.toContain("root:");
    });
  });
});

describe("serveBuiltClient with a precompressed build", () => {
  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate", "gzip"],
    ["br;q=0, gzip", "gzip"],
  ])("answers Accept-Encoding %s with the %s file, cached like the plain one", async (accepted, encoding) => {
    const response = await request(await precompressedClient()).get("/assets/big-def456.js").set("Accept-Encoding", accepted).expect(200);
    expect(response.headers["content-encoding"]).toBe(encoding);
    expect(response.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(response.headers["vary"]).toBe("Accept-Encoding");
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(response.headers["content-length"])).toBeLessThan(BIG_SCRIPT.length / 5);
    expect(response.text).toBe(BIG_SCRIPT);
  });

  it("serves a build installed under a folder whose name starts with a dot, such as ~/.local", async () => {
    const dotFolder = mkdtempSync(join(tmpdir(), ".plume-install-"));
    onTestFinished(() => rmSync(dotFolder, { recursive: true, force: true }));
    const client = await precompressedClient(INDEX_HTML, dotFolder);
    const response = await request(client).get("/assets/big-def456.js").set("Accept-Encoding", "br").expect(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.text).toBe(BIG_SCRIPT);
    await request(client).get("/assets/app-abc123.js").expect(200, "console.log(1)");
  });

  it("sends the plain file to a client that accepts no compression, still marked as varying", async () => {
    const response = await request(await precompressedClient()).get("/assets/big-def456.js").set("Accept-Encoding", "identity").expect(200);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.headers["vary"]).toBe("Accept-Encoding");
    expect(response.text).toBe(BIG_SCRIPT);
  });

  it("leaves small files plain: they have no compressed siblings", async () => {
    const response = await request(await precompressedClient()).get("/assets/app-abc123.js").set("Accept-Encoding", "br").expect(200);
    expect(response.headers["content-encoding"]).toBeUndefined();
  });
});

describe("serveBuiltClient's page", () => {
  const preloadedTexts = (html: string) => [...html.matchAll(/rel="modulepreload" crossorigin href="\/assets\/(\w+)-x1\.js"/g)].map((match) => match[1]);

  it.each([
    ["es-ES,es;q=0.9,en;q=0.8", "es"],
    ["fr-CA", "fr"],
    ["de-DE,de;q=0.9", "en"],
    ["de-DE, fr;q=0.5", "fr"],
  ])("preloads the texts of the browser language %s: %s", async (accepted, language) => {
    const response = await request(builtClient()).get("/catalog").set("Accept-Language", accepted).expect(200);
    expect(preloadedTexts(response.text)).toEqual([language]);
    expect(response.headers["vary"]).toBe("Accept-Encoding, Accept-Language, Cookie");
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
  });

  it("preloads the first screens' texts only: the other screens' come with those screens", async () => {
    const response = await request(builtClient()).get("/").set("Accept-Language", "fr").expect(200);
    expect(response.text).toContain("/assets/fr-x1.js");
    expect(response.text).not.toContain("-later.js");
  });

  it("prefers the reader's chosen language, kept in a cookie, over the browser's", async () => {
    const response = await request(builtClient()).get("/").set("Accept-Language", "es-ES").set("Cookie", "other=1; plume-lang=fr").expect(200);
    expect(preloadedTexts(response.text)).toEqual(["fr"]);
  });

  it("ignores a cookie naming a language the app does not speak", async () => {
    const response = await request(builtClient()).get("/").set("Cookie", "plume-lang=../../x").expect(200);
    expect(preloadedTexts(response.text)).toEqual(["en"]);
  });

  it("preloads the chunk of the screen a path shows when it has one of its own, but not the first script again", async () => {
    const folder = builtFolder();
    writeFileSync(join(folder, "index.html"), INDEX_HTML.replace("</head>", '<script type="module" src="/assets/index-abc.js"></script></head>'));
    const manifest = JSON.parse(readFileSync(join(folder, ".vite", "manifest.json"), "utf8")) as Record<string, unknown>;
    Object.assign(manifest, {
      "_index-abc.js": { file: "assets/index-abc.js" },
      "_shared-def.js": { file: "assets/shared-def.js", imports: ["_index-abc.js"] },
      "src/features/site/landing-page.tsx": { file: "assets/landing-page-1.js", imports: ["_index-abc.js"], isDynamicEntry: true },
      "src/features/books/book-page.tsx": { file: "assets/book-page-2.js", imports: ["_index-abc.js", "_shared-def.js"], isDynamicEntry: true },
    });
    writeFileSync(join(folder, ".vite", "manifest.json"), JSON.stringify(manifest));
    const preloaded = async (path: string) =>
      [...(await request(appServing(folder)).get(path).set("Accept-Language", "en")).text.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((match) => match[1]);
    expect(await preloaded("/")).toEqual(["/assets/en-x1.js", "/assets/landing-page-1.js"]);
    expect(await preloaded("/books/7-a-title")).toEqual(["/assets/en-x1.js", "/assets/book-page-2.js", "/assets/shared-def.js"]);
    expect(await preloaded("/catalog")).toEqual(["/assets/en-x1.js"]);
    expect(await preloaded("/books/7/read")).toEqual(["/assets/en-x1.js"]);
  });

  it("serves the page as built, but for the screen's reads, when the build has no manifest", async () => {
    const folder = builtFolder();
    rmSync(join(folder, ".vite"), { recursive: true });
    const response = await request(appServing(folder)).get("/login").expect(200);
    expect(response.text).toBe(INDEX_HTML.replace("</head>", `${fetchPreload("/api/auth/user")}</head>`));
  });

  const fetchPreload = (read: string) => `  <link rel="preload" as="fetch" crossorigin="use-credentials" href="${read}">\n`;
  const preloadedReads = (html: string) =>
    [...html.matchAll(/<link rel="preload" as="fetch" crossorigin="use-credentials" href="([^"]+)">/g)].map((match) => match[1]!.replaceAll("&amp;", "&"));

  it.each([
    ["/", ["/api/auth/user", "/api/books?limit=4&offset=0"]],
    ["/catalog", ["/api/auth/user", "/api/books?limit=20&offset=0"]],
    // As the catalog reads its address: the search trimmed, an unknown genre left out, "newest" kept beside a search.
    ["/catalog?search=%20a%20%22moon%22%20&genre=nope&sort=newest", ["/api/auth/user", '/api/books?limit=20&offset=0&search=a+%22moon%22&sort=newest']],
    ["/catalog?genre=negocios&sort=title", ["/api/auth/user", "/api/books?limit=20&offset=0&genre=negocios&sort=title"]],
    ["/dashboard", ["/api/auth/user"]],
  ])("names the reads of the screen at %s as preloads the app's fetches take", async (path, reads) => {
    const response = await request(builtClient()).get(path).expect(200);
    expect(preloadedReads(response.text)).toEqual(reads);
  });

  it.each([
    ["/", "/api/books?limit=4&offset=0&language=fr"],
    ["/catalog?genre=negocios", "/api/books?limit=20&offset=0&genre=negocios&language=fr"],
    // An address naming a language shows that one (docs/product.md#catalog-by-language).
    ["/catalog?language=es", "/api/books?limit=20&offset=0&language=es"],
  ])("preloads %s in the book language the reader chose last, as the app will ask for it", async (path, read) => {
    const response = await request(builtClient()).get(path).set("Cookie", "plume-lang=en; plume-book-lang=fr").expect(200);
    expect(preloadedReads(response.text)).toEqual(["/api/auth/user", read]);
  });

  it("reads a remembered book language it does not know as none", async () => {
    const response = await request(builtClient()).get("/catalog").set("Cookie", "plume-book-lang=de").expect(200);
    expect(preloadedReads(response.text)).toEqual(["/api/auth/user", "/api/books?limit=20&offset=0"]);
  });

  it("adds the reads a page's head names, which only its data knows (a book's author)", async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.locals.pageHead = { status: 200, language: "en", tags: "<title>A book</title>", reads: ["/api/books/7", "/api/authors/a1"] };
      next();
    });
    app.use(...serveBuiltClient(builtFolder()));
    const response = await request(app).get("/books/7-a-book").expect(200);
    expect(preloadedReads(response.text)).toEqual(["/api/auth/user", "/api/books/7", "/api/authors/a1"]);
  });
});

describe("serveBuiltClient's stylesheet", () => {
  // "$&" would be the matched text in a replacement string: the stylesheet goes in as it is.
  const CSS = '.a{color:red}.b::before{content:"$&"}';
  const withStylesheet = () => {
    const folder = builtFolder();
    writeFileSync(join(folder, "assets", "index-s1.css"), CSS);
    writeFileSync(
      join(folder, "index.html"),
      '<!doctype html>\n<html>\n  <head>\n    <title>Plume</title>\n    <script type="module" crossorigin src="/assets/app-abc123.js"></script>\n    <link rel="stylesheet" crossorigin href="/assets/index-s1.css">\n  </head>\n  <body></body>\n</html>\n',
    );
    const app = express();
    app.use(securityHeaders({ hotReload: false, isProduction: false }), ...serveBuiltClient(folder));
    return app;
  };
  const styleSource = (policy: unknown) => /(?:^|;)style-src ([^;]*)/.exec(String(policy))?.[1];

  it("is written into the page, after the page's preloads, and the page's policy allows it by its hash alone", async () => {
    const response = await request(withStylesheet()).get("/catalog").expect(200);
    expect(response.text).not.toContain('rel="stylesheet"');
    const styleAt = response.text.indexOf(`<style>${CSS}</style>`);
    expect(styleAt).toBeGreaterThan(response.text.lastIndexOf('rel="preload"'));
    expect(response.text.slice(styleAt + `<style>${CSS}</style>`.length).trimStart()).toMatch(/^<\/head>/);
    expect(styleSource(response.headers["content-security-policy"])).toBe(`'self' 'sha256-${createHash("sha256").update(CSS).digest("base64")}'`);
  });

  it("leaves every other answer's policy as it was", async () => {
    const response = await request(withStylesheet()).get("/assets/app-abc123.js").expect(200);
    expect(styleSource(response.headers["content-security-policy"])).toBe("'self'");
  });
});
