import { docxParts, zipPackage } from "./word-packages.ts";

/**
 * Books of real text made in the test: a PDF with a text layer and a DOCX of the same paragraphs, and
 * prose generated from a seed (docs/decisions/0091's benchmark corpus). Nothing is downloaded.
 */

/** A seeded generator (mulberry32): the same seed, the same book, on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADJECTIVES = ["old", "young", "tired", "quiet", "proud", "gentle", "angry", "foreign", "silent", "patient", "famous", "lonely", "clever", "restless", "honest", "careless", "grey", "little", "wealthy", "forgotten"];
const PEOPLE = ["miller", "daughter", "stranger", "soldier", "clerk", "widow", "captain", "gardener", "child", "doctor", "uncle", "innkeeper", "priest", "merchant", "schoolmistress", "blacksmith", "sailor", "painter", "baker", "shepherd"];
const VERBS = ["walked slowly towards", "looked for a long time at", "spoke without fear about", "remembered", "could not forget", "dreamed again of", "wrote a letter about", "refused to speak of", "laughed softly at", "waited all night near", "carried the news to", "sold at last", "painted", "mended", "lost", "found again", "asked about", "turned away from", "thought of", "hid"];
const THINGS = ["house", "bridge", "letters", "box", "garden", "road", "ship", "room", "map", "bells", "watch", "orchard", "train", "market", "lighthouse", "mill", "chapel", "well", "field", "gate"];
const PLACES = ["by the river", "behind the church", "near the harbour", "in the valley", "on the hill", "at the crossroads", "under the old walls", "beyond the forest"];
const ENDINGS = ["before the rain came", "while the town was sleeping", "as the bells rang for evening", "and nobody saw it", "though it was already late", "in the grey light of morning", "for the first time in years", "without a word to anyone", "as his mother had done", "under a sky full of stars", "when the snow began to fall", "and then went home"];
const NAMES = ["Anna", "Tomás", "Élise", "Martin", "Lucía", "Henri", "Clara", "Pablo", "Jeanne", "Rafael", "Odile", "Mateo", "Agnès", "Samuel", "Inés", "Victor"];

/**
 * A paragraph of `sentences` generated sentences: one grammar and vocabulary for every book, so that
 * distinct books share common phrases ("under a sky full of stars") as real ones do.
 */
export function proseParagraph(random: () => number, sentences = 5): string {
  const pick = <T,>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: sentences }, () => {
    const who = random() < 0.3 ? pick(NAMES) : `the ${pick(ADJECTIVES)} ${pick(PEOPLE)}`;
    const place = random() < 0.5 ? ` ${pick(PLACES)}` : "";
    const sentence = `${who} ${pick(VERBS)} the ${pick(ADJECTIVES)} ${pick(THINGS)}${place} ${pick(ENDINGS)}.`;
    return sentence[0]!.toUpperCase() + sentence.slice(1);
  }).join(" ");
}

/** A book of `chapters` chapters of `paragraphsPerChapter` generated paragraphs, each chapter starting with its heading. */
export function proseBook(seed: number, { chapters = 6, paragraphsPerChapter = 8 } = {}): string[][] {
  const random = seededRandom(seed);
  return Array.from({ length: chapters }, (_, chapter) => [`Chapter ${chapter + 1}`, ...Array.from({ length: paragraphsPerChapter }, () => proseParagraph(random))]);
}

/** A PDF string literal: its delimiters escaped, in the one-byte encoding the standard fonts read (WinAnsi covers Latin-1's letters). */
const pdfString = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\xff]/g, "?")})`;

/** Cuts a paragraph into lines of at most `width` characters, at spaces. */
function wrap(paragraph: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of paragraph.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

const LINES_PER_PAGE = 46;

/**
 * A PDF of the paragraphs in Helvetica, wrapped at `lineWidth` characters, with a page number at each
 * page's foot and a blank line between paragraphs: a text layer as a word processor's export has one.
 * `producer` goes into the document's information: a re-saved copy differs in its bytes only.
 */
export function textPdf(paragraphs: string[], { lineWidth = 90, producer = "Plume tests" }: { lineWidth?: number; producer?: string } = {}): Buffer {
  const lines = paragraphs.flatMap((paragraph) => [...wrap(paragraph, lineWidth), ""]);
  const pages: string[][] = [];
  for (let at = 0; at < lines.length; at += LINES_PER_PAGE) pages.push(lines.slice(at, at + LINES_PER_PAGE));
  const objects: string[] = [];
  const pageIds = pages.map((_, index) => 4 + index * 2);
  objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`;
  objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
  pages.forEach((pageLines, index) => {
    const body = pageLines.map((line) => `${pdfString(line)} Tj T*`).join("\n");
    const content = `BT /F1 11 Tf 14 TL 56 770 Td\n${body}\nET\nBT /F1 9 Tf 300 30 Td (${index + 1}) Tj ET`;
    objects[pageIds[index]!] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[index]! + 1} 0 R >>`;
    objects[pageIds[index]! + 1] = `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`;
  });
  const infoId = objects.length;
  objects[infoId] = `<< /Producer ${pdfString(producer)} >>`;
  let out = "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n";
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id += 1) {
    offsets[id] = Buffer.byteLength(out, "latin1");
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n${offsets
    .slice(1)
    .map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`)
    .join("")}`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${infoId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A DOCX whose document holds the paragraphs, one `w:p` each. */
export function textDocx(paragraphs: string[]): Buffer {
  const body = paragraphs.map((paragraph) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(paragraph)}</w:t></w:r></w:p>`).join("");
  const parts = docxParts().map((part) =>
    part.name === "word/document.xml"
      ? {
          ...part,
          data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
        }
      : part,
  );
  return zipPackage(parts);
}
