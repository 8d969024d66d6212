import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../../test/helpers/book-fixtures.ts";
import { CHAPTER_TEXT, type EpubOptions, buildEpub, opf, xhtml } from "../../test/helpers/epub-builder.ts";
import { epubText, inspectEpub } from "./epub-documents.ts";

const scratch = mkdtempSync(join(tmpdir(), "plume-epub-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const LIMITS = { unpackedMaxBytes: 100 * 1024 * 1024, inflateRatioMax: 100, documentMaxBytes: 16 * 1024 * 1024 };
let written = 0;
async function saved(options: EpubOptions = {}): Promise<string> {
  const path = join(scratch, `book-${(written += 1)}.epub`);
  writeFileSync(path, await buildEpub(options));
  return path;
}
const inspect = async (options: EpubOptions) => inspectEpub(await saved(options), LIMITS);
const chapter = (body: string, extra: Parameters<typeof xhtml>[1] = {}) => ({ parts: { "OEBPS/text/chapter-1.xhtml": xhtml(body, extra) } });
const PNG = readFileSync(fixture("cover.png"));

describe("EPUB checks", () => {
  it("accepts the real EPUB 3 and takes its cover-image item", async () => {
    const verdict = await inspectEpub(fixture("book.epub"), LIMITS);
    expect(verdict.unsafe).toBeNull();
    expect(verdict.unsafe === null && Buffer.from(verdict.cover!).equals(PNG)).toBe(true);
  });

  it("accepts a book with hyperlinks out, inline raster images, XHTML entities and EPUB 2's XHTML 1.1 DOCTYPE", async () => {
    const epub2 = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">';
    const verdict = await inspect(chapter('<p><a href="https://example.org/">out</a>&nbsp;<img alt="" src="data:image/png;base64,iVBORw0KGgo="/></p>', { doctype: epub2 }));
    expect(verdict).toMatchObject({ unsafe: null });
  });

  it("accepts text that merely mentions a scheme, HTML5's legacy DOCTYPE, and a package linking a record elsewhere", async () => {
    expect(await inspect(chapter('<p title="JavaScript: the good parts">JavaScript: the good parts</p>', { doctype: '<!DOCTYPE html SYSTEM "about:legacy-compat">' }))).toMatchObject({ unsafe: null });
    const record = opf({ metadata: '<link rel="record" href="https://example.org/onix.xml" media-type="application/xml"/>' });
    expect(await inspect({ parts: { "OEBPS/content.opf": record } })).toMatchObject({ unsafe: null });
  });

  it("finds the cover by EPUB 2's cover meta, else by an image named as a cover", async () => {
    const byMeta = await inspect({ parts: { "OEBPS/content.opf": opf({ coverProperties: "", coverId: "img7", metadata: '<meta name="cover" content="img7"/>' }) } });
    expect(byMeta.unsafe === null && byMeta.cover?.length).toBe(PNG.length);
    const byName = await inspect({ parts: { "OEBPS/content.opf": opf({ coverProperties: "", coverId: "img7" }) } });
    expect(byName.unsafe === null && byName.cover?.length).toBe(PNG.length);
    const none = await inspect({ parts: { "OEBPS/content.opf": opf({ coverProperties: "", coverId: "img7", coverHref: "images/plate.png" }), "OEBPS/images/plate.png": PNG } });
    expect(none).toMatchObject({ unsafe: null, cover: null });
  });

  it("leaves out a cover larger than a cover may be", async () => {
    const large = Buffer.concat([PNG, randomBytes(5 * 1024 * 1024)]);
    expect(await inspect({ parts: { "OEBPS/images/cover.png": large } })).toMatchObject({ unsafe: null, cover: null });
  });

  it("accepts font obfuscation, the only encryption a book reads without a key", async () => {
    const encryption = `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
      <enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/><enc:CipherData><enc:CipherReference URI="OEBPS/style.css"/></enc:CipherData></enc:EncryptedData>
    </encryption>`;
    expect(await inspect({ parts: { "META-INF/encryption.xml": encryption } })).toMatchObject({ unsafe: null });
  });

  it.each<[string, EpubOptions, string, RegExp]>([
    ["a compressed mimetype", { mimetype: { compress: true } }, "malformed", /compressed/],
    ["a mimetype of another type", { mimetype: { content: "application/zip" } }, "malformed", /does not hold/],
    ["a mimetype with more after it", { mimetype: { content: "application/epub+zip\n" } }, "malformed", /does not hold/],
    ["no container", { parts: { "META-INF/container.xml": null } }, "malformed", /container\.xml is missing/],
    ["no package document", { parts: { "OEBPS/content.opf": null } }, "malformed", /package document .* is missing/],
    ["a package document that does not parse", { parts: { "OEBPS/content.opf": "<package><manifest>" } }, "malformed", /not well-formed/],
    ["two files of one name but for case", { parts: { "OEBPS/Style.css": "p {}" } }, "malformed", /two files are named OEBPS\/st/i],
    ["a manifest item not in the zip", { parts: { "OEBPS/style.css": null } }, "malformed", /style\.css, which is not in the book/],
    ["a spine naming no manifest item", { parts: { "OEBPS/content.opf": opf().replace('idref="c1"', 'idref="c9"') } }, "malformed", /c9/],
    ["elements nested past the bound", chapter("<div>".repeat(300) + "</div>".repeat(300)), "malformed", /deep/],
    [
      "a billion laughs",
      chapter("<p>&lol3;</p>", { doctype: '<!DOCTYPE html [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;">]>' }),
      "entities",
      /declares entities/,
    ],
    ["an external entity", chapter("<p>&xxe;</p>", { doctype: '<!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' }), "entities", /declares entities/],
    ["an outside DTD", chapter("<p>x</p>", { doctype: '<!DOCTYPE html SYSTEM "http://evil.example/x.dtd">' }), "entities", /outside DTD/],
    ["a known public DTD fetched from elsewhere", chapter("<p>x</p>", { doctype: '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://evil.example/xhtml11.dtd">' }), "entities", /outside DTD/],
    ["a script element", chapter("<script>alert(1)</script>"), "scripts", /script element/],
    ["an SVG script", chapter('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), "scripts", /script element/],
    ["an onload attribute", chapter('<img alt="" src="../images/cover.png" onload="alert(1)"/>'), "scripts", /onload/],
    ["a javascript: link", chapter('<a href=" jav&#x09;ascript:alert(1)">x</a>'), "scripts", /javascript/],
    ["an SVG animation setting a javascript: link", chapter('<svg xmlns="http://www.w3.org/2000/svg"><a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>'), "scripts", /javascript/],
    ["an image from a network path written with backslashes", chapter('<img alt="" src="\\\\tracker.example\\a.png"/>'), "remote-resources", /tracker/],
    ["a scripted item", { parts: { "OEBPS/content.opf": opf({ items: '<item id="s" href="nav.xhtml" media-type="application/xhtml+xml" properties="scripted"/>' }) } }, "scripts", /scripted/],
    ["a script in the manifest", { parts: { "OEBPS/content.opf": opf({ items: '<item id="s" href="style.css" media-type="application/javascript"/>' }) } }, "scripts", /script/],
    ["a remote image", chapter('<img alt="" src="https://tracker.example/pixel.png"/>'), "remote-resources", /tracker/],
    ["a remote image by srcset", chapter('<img alt="" src="../images/cover.png" srcset="//tracker.example/a.png 2x"/>'), "remote-resources", /tracker/],
    ["a remote stylesheet", chapter("", { head: '<link rel="stylesheet" href="https://cdn.example/x.css"/>' }), "remote-resources", /cdn/],
    ["a remote import in a stylesheet", { parts: { "OEBPS/style.css": '@import "https://cdn.example/x.css";' } }, "remote-resources", /style\.css/],
    ["a remote import in a UTF-16 stylesheet", { parts: { "OEBPS/style.css": Buffer.from('\uFEFF@import "https://cdn.example/x.css";', "utf16le") } }, "remote-resources", /style\.css/],
    ["a remote url() hidden by a CSS escape", { parts: { "OEBPS/style.css": "body { background: u\\72l(http://cdn.example/a.png) }" } }, "remote-resources", /style\.css/],
    ["a remote url() in a style element", chapter("", { head: "<style>p { background: url('https://cdn.example/a.png') }</style>" }), "remote-resources", /style/],
    ["a remote manifest item", { parts: { "OEBPS/content.opf": opf({ items: '<item id="r" href="https://cdn.example/a.mp3" media-type="audio/mpeg"/>' }) } }, "remote-resources", /cdn/],
    ["remote-resources declared", { parts: { "OEBPS/content.opf": opf().replace('href="text/chapter-1.xhtml"', 'href="text/chapter-1.xhtml" properties="remote-resources"') } }, "remote-resources", /elsewhere/],
    [
      "content encrypted with AES",
      {
        parts: {
          "META-INF/encryption.xml":
            '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/></enc:EncryptedData></encryption>',
        },
      },
      "encrypted",
      /aes128/,
    ],
    ["Adobe's rights", { parts: { "META-INF/rights.xml": "<rights/>" } }, "encrypted", /rights\.xml/],
    ["a zip bomb", { parts: { "OEBPS/images/zeros.bin": Buffer.alloc(20 * 1024 * 1024) } }, "unpacks-too-large", /unpacks/],
    ["a name climbing out of the book", { parts: { "QQ/evil.xhtml": "x" }, renames: { "QQ/evil.xhtml": "../evil.xhtml" } }, "unsafe-paths", /leaves the book/],
  ])("refuses %s", async (_, options, reason, detail) => {
    const verdict = await inspect(options);
    expect(verdict.unsafe).toBe(reason);
    expect(verdict.unsafe !== null && verdict.detail).toMatch(detail);
  });
});

describe("an EPUB's text", () => {
  it("is its spine's text, tags, styles and the navigation document left out", async () => {
    const text = await epubText(await saved(chapter(`<style>p { color: red }</style><h1>Uno</h1><p>${CHAPTER_TEXT}</p>`)), 1_000_000);
    expect(text).toContain(CHAPTER_TEXT);
    expect(text).not.toContain("color");
    expect(text).not.toContain("<");
    expect(await epubText(fixture("book.epub"), 1_000_000)).toContain("Cada noche, Mar encendía la lámpara");
  });

  it("stops at the bound", async () => {
    expect((await epubText(fixture("book.epub"), 40)).length).toBe(40);
  });
});
