import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { SaxesParser } from "saxes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { EPUBCHECK_PATH } from "../../scripts/ensure-test-tools.ts";
import { fixture } from "../../test/helpers/book-fixtures.ts";
import { messyDocx } from "../../test/helpers/messy-docx.ts";
import { bundledChild, runCaged } from "../system/caged-job.ts";
import { epubIdentifierOf } from "./word-epub.ts";
import type { WordEpubAnswer, WordEpubJob } from "./word-epub-process.ts";

/*
 * The EPUBs Plume makes of Word books (docs/decisions/0096) pass EPUBCheck, the W3C's validator, with no
 * error: the fixtures' DOCX and DOC, and a long, messy DOCX made here. Each is made by the same caged
 * process as in production; EPUBCheck takes seconds per book, so it runs once per book for every test.
 */

const execFileAsync = promisify(execFile);
const PROCESS = bundledChild("server/books/word-epub-process.ts", true);
const LIMITS = { timeoutMs: 120_000, heapMegabytes: 512 };

interface Made {
  path: string;
  answer: WordEpubAnswer;
  entries: Map<string, Buffer>;
  check: { nFatal: number; nError: number; nWarning: number; messages: Array<{ ID: string; severity: string; message: string; locations: Array<{ path: string; line: number }> }> };
}

let folder: string;
const made = new Map<string, Made>();

function unzip(path: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Buffer>();
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(entries));
      zip.readEntry();
    });
  });
}

async function make(label: string, source: string, kind: "docx" | "doc", coverPath: string | null) {
  const path = join(folder, `${label}.epub`);
  const job: WordEpubJob = {
    path: source,
    kind,
    outputPath: path,
    coverPath,
    title: `${label} — «Mañana» & <París>`,
    creator: "Ana García",
    language: kind === "doc" ? "es" : "fr",
    identifier: epubIdentifierOf(`${label}.${kind}`),
    modified: new Date().toISOString(),
  };
  const { answer } = await runCaged<WordEpubJob, WordEpubAnswer>(PROCESS, job, LIMITS);
  const report = join(folder, `${label}.json`);
  // EPUBCheck exits 1 when it finds errors: the report says which.
  await execFileAsync("java", ["-jar", EPUBCHECK_PATH, path, "--json", report], { timeout: 120_000 }).catch(() => undefined);
  const { checker, messages } = JSON.parse(readFileSync(report, "utf8"));
  made.set(label, { path, answer, entries: await unzip(path), check: { ...checker, messages } });
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "plume-epubcheck-"));
  const messy = join(folder, "messy.docx");
  writeFileSync(messy, messyDocx({ chapters: 12 }));
  await make("docx", fixture("book.docx"), "docx", fixture("cover.webp"));
  await make("doc", fixture("book.doc"), "doc", null);
  await make("messy", messy, "docx", fixture("cover.webp"));
}, 600_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const text = (book: string, name: string) => made.get(book)!.entries.get(name)!.toString("utf8");

describe("the EPUB made of a Word book", () => {
  it.each(["docx", "doc", "messy"])("of %s passes EPUBCheck without an error", (label) => {
    const { check } = made.get(label)!;
    const problems = check.messages.filter((message) => message.severity !== "INFO" && message.severity !== "USAGE");
    // Warnings are reported, not failed on; none is expected either.
    if (check.nWarning > 0) console.warn(`EPUBCheck warnings for ${label}:`, problems);
    expect({ fatal: check.nFatal, errors: check.nError, problems: problems.filter((problem) => problem.severity !== "WARNING") }).toEqual({ fatal: 0, errors: 0, problems: [] });
    expect(check.nWarning).toBe(0);
  });

  it("holds only well-formed XML, the mimetype first and stored", () => {
    for (const [label, { path, entries }] of made) {
      const bytes = readFileSync(path);
      expect(bytes.subarray(30, 58).toString("latin1"), label).toBe("mimetypeapplication/epub+zip");
      for (const [name, data] of entries) {
        if (!/\.(xhtml|opf|ncx|xml)$/.test(name)) continue;
        const parser = new SaxesParser({ xmlns: true });
        expect(() => parser.write(data.toString("utf8")).close(), `${label}: ${name}`).not.toThrow();
      }
    }
  });

  it("is split at the chapters, its contents the first two heading levels nested, empty headings left out", () => {
    const nav = text("messy", "EPUB/nav.xhtml");
    expect(nav).toContain('epub:type="toc"');
    expect(nav).toContain("<h1>Table des matières</h1>");
    // The second-level heading before the first chapter, then the chapters with their sections inside.
    expect(nav).toMatch(/<ol><li><a href="chapter-0001\.xhtml#h\d+">A section before any chapter<\/a><\/li><li><a href="chapter-0002\.xhtml#h\d+">Chapter one: lists &#38; &#60;tables&#62;<\/a><\/li>/);
    expect(nav).toMatch(/Chapter two: images<\/a><ol><li><a href="chapter-0003\.xhtml#h\d+">A section with a very long paragraph<\/a><\/li><li><a href="chapter-\d+\.xhtml#h\d+">[^<]{150,199}…<\/a><\/li><\/ol><\/li>/);
    expect(nav).toMatch(/>Chapter 12<\/a><ol><li><a href="chapter-\d+\.xhtml#h\d+">Section 12\.1<\/a><\/li><\/ol><\/li><\/ol><\/nav>/);
    expect(nav).not.toContain("A third-level heading");
    expect(nav).not.toMatch(/<a href="[^"]*">\s*<\/a>/);
    expect(text("messy", "EPUB/toc.ncx")).toContain("<text>Chapter 12</text>");
    // 12 chapters, the text before the first, and the very long paragraph's followers in a file of their own.
    expect(made.get("messy")!.answer).toMatchObject({ chapters: 14, images: 2 });
    // A book with no headings gets one entry per part, named by its first words.
    expect(text("doc", "EPUB/nav.xhtml")).toMatch(/<ol><li><a href="chapter-0001\.xhtml">[^<]{5,}<\/a><\/li><\/ol>/);
  });

  it("writes text and links as XHTML: numeric references, closed void elements, URIs encoded, scripts dropped", () => {
    const chapter = text("messy", "EPUB/chapter-0002.xhtml");
    expect(chapter).toContain("&#60;tag&#62; &#38; &#34;quotes&#34;");
    expect(chapter).toContain("👩\u200d💻");
    expect(chapter).toContain("<br/>");
    expect(chapter).toContain('<a href="https://example.org/a?b=1&#38;c=%3C2%3E">a link out</a>');
    expect(chapter).not.toContain("javascript:");
    expect(chapter).not.toMatch(/&(?!#\d+;)/);
    expect(chapter).toContain('<td colspan="2">');
    expect(chapter).toMatch(/<ul><li>First bullet<ol><li>Nested numbered<ul><li>Deeper still<\/li><\/ul><\/li>/);
  });

  it("links each footnote reference to its note, in whichever file the note ended up, and back", () => {
    const { entries } = made.get("messy")!;
    const reference = /<a href="(chapter-\d+\.xhtml)#footnote-1" id="footnote-ref-1" epub:type="noteref">\[1\]<\/a>/.exec(text("messy", "EPUB/chapter-0002.xhtml"));
    expect(reference).not.toBeNull();
    const notes = entries.get(`EPUB/${reference![1]}`)!.toString("utf8");
    expect(notes).toContain('<li id="footnote-1"><p>A note with &#60;angle brackets&#62; &#38; an ampersand. <a href="chapter-0002.xhtml#footnote-ref-1">↑</a></p></li>');
    expect(notes).toMatch(/<li id="footnote-2"><p>Un «second» renvoi — ça marche\. <a href="chapter-\d+\.xhtml#footnote-ref-2">↑<\/a><\/p><\/li>/);
  });

  it("carries the cover and the book's images as JPEG or PNG, each once, with accessibility metadata that tells the truth", () => {
    const { entries } = made.get("messy")!;
    const opf = text("messy", "EPUB/package.opf");
    expect(opf).toContain('<item id="cover-image" href="images/cover.jpg" media-type="image/jpeg" properties="cover-image"/>');
    expect(entries.get("EPUB/images/cover.jpg")!.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    // The red square twice and the WebP: two images, the WebP turned into PNG.
    expect(opf).toContain('<item id="i1" href="images/image-0001.png" media-type="image/png"/>');
    expect(opf).toContain('<item id="i2" href="images/image-0002.png" media-type="image/png"/>');
    expect(entries.get("EPUB/images/image-0002.png")!.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(opf).toContain('<dc:language>fr</dc:language>');
    expect(opf).toContain("<dc:creator>Ana García</dc:creator>");
    expect(opf).toContain("<dc:title>messy — «Mañana» &#38; &#60;París&#62;</dc:title>");
    expect(opf).toMatch(/<dc:identifier id="book-id">urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}<\/dc:identifier>/);
    expect(opf).toMatch(/<meta property="dcterms:modified">\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/meta>/);
    expect(opf).toContain('<meta property="schema:accessMode">visual</meta>');
    // One image has no description: no alternativeText claimed, and text alone is not enough.
    expect(opf).not.toContain("alternativeText");
    expect(opf).toContain('<meta property="schema:accessModeSufficient">textual,visual</meta>');
    expect(opf).toContain('<meta property="schema:accessibilityHazard">none</meta>');
    const doc = text("doc", "EPUB/package.opf");
    expect(doc).not.toContain("visual");
    expect(doc).not.toContain("structuralNavigation");
    expect(doc).not.toContain("cover-image");
  });
});
