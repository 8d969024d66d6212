import { EPUB } from "foliate-js/epub.js";
import { BlobReader, BlobWriter, TextWriter, ZipReader, configure } from "foliate-js/vendor/zip.js";
import type { FoliateBook } from "foliate-js/view.js";

const XHTML = "application/xhtml+xml";
const HTML = "text/html";
const CSS = "text/css";

/** A book's (X)HTML and SVG documents, whose style attributes are renamed before anything parses them. */
const MARKUP_FILE = /\.(x?html?|svg)$/i;
/** A style attribute inside a tag (not across one: `[^<>]` stops at the tag's end). */
const STYLE_ATTRIBUTE = /(<[^<>]*?\s)style(\s*=)/gi;

/**
 * The book from its EPUB file, unzipped in this page (foliate's own zip loader, minus one thing).
 * Chromium checks a style attribute against the page's CSP even in a DOMParser's inert document, and
 * reports each one refused: a chapter's are renamed data-plume-style in the text itself, then applied
 * through the CSSOM once the chapter is shown (fitBookToPolicy).
 */
export async function openEpub(file: Blob): Promise<FoliateBook> {
  configure({ useWebWorkers: false });
  const entries = await new ZipReader(new BlobReader(file)).getEntries();
  const byName = new Map(entries.map((entry) => [entry.filename, entry]));
  const loadText = async (name: string) => {
    const entry = byName.get(name);
    if (!entry) return null;
    const text = await entry.getData(new TextWriter());
    return MARKUP_FILE.test(name) ? text.replace(STYLE_ATTRIBUTE, "$1data-plume-style$2") : text;
  };
  const loadBlob = (name: string, type?: string) => byName.get(name)?.getData(new BlobWriter(type)) ?? null;
  const getSize = (name: string) => byName.get(name)?.uncompressedSize ?? 0;
  return new EPUB({ loadText, loadBlob, getSize }).init();
}

/** A chapter ready for its sandboxed frame: markup for `srcdoc`, and the stylesheets the frame cannot load itself. */
interface PreparedSection {
  markup: string;
  stylesheets: string[];
}

/** A resource of the book turned into a blob: URL by foliate's loader, when its text is worth keeping. */
type LoadedText = { type: string; text: string };

/**
 * Elements that would act on their own in a chapter: a refresh could take the frame to another site, a
 * base would move every link. Scripts need no removal: nothing runs in the frame (docs/decisions/0097).
 */
const INERT = "meta[http-equiv], base";

/**
 * Makes a book's chapters fit Plume's Content-Security-Policy, which stays as it is (docs/decisions/0097):
 * a chapter's frame gets its markup by `srcdoc` (a `blob:` frame is refused), its stylesheets as
 * constructed stylesheets (a `<link>` to a `blob:` or a `<style>` is refused), and its style attributes
 * (renamed by openEpub) through the CSSOM. Returns what to call once each chapter's document has loaded.
 */
export function fitBookToPolicy(book: FoliateBook): (doc: Document, index: number) => void {
  const texts = new Map<string, LoadedText>();
  book.transformTarget?.addEventListener("plume-url", (event) => {
    const { url, type, data } = (event as CustomEvent<{ url: string; type: string; data: unknown }>).detail;
    if (typeof data === "string" && (type === XHTML || type === HTML || type === CSS)) texts.set(url, { type, text: data });
  });

  const prepared = new Map<number, PreparedSection>();
  book.sections.forEach((section, index) => {
    const load = section.load.bind(section);
    const unload = section.unload?.bind(section);
    let url: string | undefined;
    section.load = async () => {
      url = await load();
      const loaded = texts.get(url);
      if (!loaded) throw new Error(`Section ${index} is not an (X)HTML document`);
      const ready = prepareSection(loaded, texts);
      prepared.set(index, ready);
      return ready.markup;
    };
    // Unloaded, a chapter's URL is revoked and its text forgotten: a long book is not kept whole in memory.
    section.unload = () => {
      prepared.delete(index);
      if (url) texts.delete(url);
      unload?.();
    };
  });

  return (doc, index) => {
    const view = doc.defaultView;
    const section = prepared.get(index);
    if (!view || !section) return;
    // A constructed stylesheet must be made in the frame's own window to be adopted by its document.
    const sheets = section.stylesheets.map((text) => {
      const sheet = new view.CSSStyleSheet();
      sheet.replaceSync(text);
      return sheet;
    });
    // foliate's two sheets (scripts/vite-foliate-under-csp.ts) stay first and last: the reader's theme wins over the book's.
    const [before, ...after] = doc.adoptedStyleSheets;
    doc.adoptedStyleSheets = before ? [before, ...sheets, ...after] : sheets;
    for (const element of doc.querySelectorAll<HTMLElement>("[data-plume-style]")) {
      element.style.cssText = element.dataset.plumeStyle ?? "";
      delete element.dataset.plumeStyle;
    }
  };
}

function prepareSection({ type, text }: LoadedText, texts: Map<string, LoadedText>): PreparedSection {
  const doc = new DOMParser().parseFromString(text, type === XHTML ? XHTML : HTML);
  const stylesheets: string[] = [];
  for (const element of doc.querySelectorAll("link, style")) {
    if (element.localName === "style") stylesheets.push(element.textContent ?? "");
    else if (/(^|\s)stylesheet(\s|$)/i.test(element.getAttribute("rel") ?? "")) {
      const sheet = texts.get(element.getAttribute("href") ?? "");
      if (sheet?.type === CSS) stylesheets.push(sheet.text);
    } else continue;
    element.remove();
  }
  for (const element of doc.querySelectorAll(INERT)) element.remove();
  // srcdoc is read as HTML: without a doctype the chapter would be laid out in quirks mode.
  const markup = new XMLSerializer().serializeToString(doc.documentElement);
  return { markup: `<!DOCTYPE html>${markup}`, stylesheets };
}
