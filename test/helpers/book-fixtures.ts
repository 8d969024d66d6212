import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import type request from "supertest";
import { projectRoot } from "../../server/paths.ts";

/** The shared fixtures folder (real and hostile files), beside the project as CI checks it out. */
export const fixturesDir = process.env.PLUME_FIXTURES_DIR ?? join(projectRoot, "..", "shared", "fixtures");
export const fixture = (name: string) => join(fixturesDir, name);

export interface BookForm {
  title?: string;
  description?: string;
  genre?: string;
  language?: string;
  contentRating?: string;
  /** Series and tags (docs/product.md#series-and-tags): sent only when given. */
  seriesId?: string;
  seriesVolume?: string;
  tags?: string;
  file?: string | { buffer: Buffer; name: string } | null;
  coverImage?: string | { buffer: Buffer; name: string } | null;
}

const DEFAULT_FORM = {
  title: "Mañana en París",
  description: "Una novela de ficción sobre la mañana.",
  genre: "novela",
  language: "es",
  file: fixture("book.pdf"),
  coverImage: fixture("cover.jpg"),
};

/** Sends a multipart book form (upload or edit) with sensible defaults. */
export function sendBookForm(test: request.Test, form: BookForm = {}): request.Test {
  const fields = { ...DEFAULT_FORM, ...form };
  for (const name of ["title", "description", "genre", "language", "contentRating", "seriesId", "seriesVolume", "tags"] as const) {
    if (fields[name] !== undefined) test = test.field(name, fields[name]!);
  }
  for (const name of ["file", "coverImage"] as const) {
    const value = fields[name];
    if (value === null || value === undefined) continue;
    test = typeof value === "string" ? test.attach(name, value) : test.attach(name, value.buffer, value.name);
  }
  return test;
}

/** Every file under the uploads folder (tmp, books, covers), to prove nothing was left behind. */
export function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** A PDF of `pages` pages, each saying its number. */
export async function multiPagePdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (let page = 1; page <= pages; page += 1) pdf.addPage([300, 400]).drawText(`Page ${page}`, { x: 40, y: 350, size: 24 });
  return Buffer.from(await pdf.save());
}

/**
 * A PDF whose first page is a picture over the whole page, as a book whose file opens on its cover:
 * the fixture's cover (a dusk gradient behind a small title), then a page of text.
 */
export async function illustratedPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const cover = await pdf.embedJpg(readFileSync(fixture("cover.jpg")));
  pdf.addPage([432, 648]).drawImage(cover, { x: 0, y: 0, width: 432, height: 648 });
  pdf.addPage([432, 648]).drawText("Chapter 1", { x: 40, y: 600, size: 12 });
  return Buffer.from(await pdf.save());
}
