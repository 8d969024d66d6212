import { readdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BookCard } from "../../shared/books.ts";
import { coverPaletteOf } from "../../shared/cover-palettes.ts";
import { books } from "../db/schema.ts";
import { fixture, illustratedPdf, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import type { TestApp, signedInAgent as SignedInAgent } from "../../test/helpers/test-app.ts";
import type * as CoverDrawing from "./pdf-first-page.ts";

// The real drawing, which a test makes fail once as a crashed or timed-out drawing process does.
vi.mock("./pdf-first-page.ts", async (importOriginal) => {
  const original = await importOriginal<typeof CoverDrawing>();
  return { ...original, drawGeneratedCoverApart: vi.fn(original.drawGeneratedCoverApart) };
});

let drawGeneratedCoverApart: typeof CoverDrawing.drawGeneratedCoverApart;
let coverDrawingsBusy: () => boolean;
const drawingFailsOnce = () =>
  vi.mocked(drawGeneratedCoverApart).mockRejectedValueOnce(new Error("The cover could not be drawn: the render process ended (SIGSEGV) without an answer"));

let signedInAgent: typeof SignedInAgent;
let testApp: TestApp;
let author: Awaited<ReturnType<typeof SignedInAgent>>;
beforeAll(async () => {
  // API files share their worker's modules (vitest.config.ts): the server's modules are loaded afresh
  // here, so that the app under test draws through the mock above and not a copy an earlier file loaded.
  vi.resetModules();
  ({ drawGeneratedCoverApart } = await import("./pdf-first-page.ts"));
  ({ coverDrawingsBusy } = await import("./covers-service.ts"));
  const testAppHelpers = await import("../../test/helpers/test-app.ts");
  signedInAgent = testAppHelpers.signedInAgent;
  testApp = await testAppHelpers.createTestApp();
  author = await signedInAgent(testApp.app);
});
afterAll(() => testApp.close());

const coverFiles = () => readdirSync(join(testApp.uploadsDir, "covers")).sort();
const rowOf = async (id: number) => (await testApp.database.db.select().from(books).where(eq(books.id, id)))[0]!;
const bookById = async (id: number) => (await author.agent.get(`/api/books/${id}`).expect(200)).body as BookCard;
const publish = async (form: Parameters<typeof sendBookForm>[1]) => (await sendBookForm(author.agent.post("/api/books"), form).expect(201)).body as BookCard;

/** The stored widths of a cover, decoded: each a WebP of its width, served like any cover. */
async function expectServedCover(coverUrl: string | null) {
  expect(coverUrl).toMatch(/^\/covers\/[0-9a-f-]{36}-600\.webp$/);
  for (const width of [200, 400, 600]) {
    const answer = await request(testApp.app)
      .get(coverUrl!.replace("-600.webp", `-${width}.webp`))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(answer.headers["content-type"]).toBe("image/webp");
    const metadata = await sharp(answer.body as Buffer).metadata();
    expect([metadata.width, metadata.height]).toEqual([width, width * 1.5]);
  }
}

/** The stored cover's widest width, decoded: its dominant colour. */
const dominantOf = async (coverUrl: string | null) => (await sharp(join(testApp.uploadsDir, "covers", coverUrl!.slice("/covers/".length))).stats()).dominant;
const NOVELA_BACKGROUND = coverPaletteOf("novela").background;
const isNovelaBackground = ({ r, g, b }: { r: number; g: number; b: number }) =>
  [r, g, b].every((channel, index) => Math.abs(channel - parseInt(NOVELA_BACKGROUND.slice(1 + 2 * index, 3 + 2 * index), 16)) < 24);

describe("a cover for every book", () => {
  it("draws a PDF's first page as its cover after the upload when it is a picture, and counts its pages", async () => {
    const uploaded = await publish({ file: { buffer: await illustratedPdf(), name: "illustrated.pdf" }, coverImage: null });
    // The upload answers at once, with the placeholder.
    expect(uploaded.coverImageUrl).toBeNull();
    await testApp.coversDone();
    const book = await bookById(uploaded.id);
    expect(book.pageCount).toBe(2);
    await expectServedCover(book.coverImageUrl);
    expect((await rowOf(uploaded.id)).coverSource).toBe("first-page");
    // The page's picture, not the genre's colour; and a new title keeps it.
    expect(isNovelaBackground(await dominantOf(book.coverImageUrl))).toBe(false);
    const retitled = (await sendBookForm(author.agent.put(`/api/books/${book.id}`), { file: null, coverImage: null, title: "Another title" }).expect(200))
      .body as BookCard;
    expect(retitled.coverImageUrl).toBe(book.coverImageUrl);
  });

  it("gives a PDF whose first page is body text (the fixture) the typographic cover, redrawn when its title changes", async () => {
    const uploaded = await publish({ coverImage: null, title: "First title" });
    await testApp.coversDone();
    const book = await bookById(uploaded.id);
    expect(book.pageCount).toBe(1);
    await expectServedCover(book.coverImageUrl);
    expect((await rowOf(uploaded.id)).coverSource).toBe("generated");
    expect(isNovelaBackground(await dominantOf(book.coverImageUrl))).toBe(true);
    const retitled = (await sendBookForm(author.agent.put(`/api/books/${book.id}`), { file: null, coverImage: null, title: "Second title" }).expect(200))
      .body as BookCard;
    await expectServedCover(retitled.coverImageUrl);
    expect(retitled.coverImageUrl).not.toBe(book.coverImageUrl);
    await request(testApp.app).get(book.coverImageUrl!).expect(404);
    expect((await rowOf(uploaded.id)).coverSource).toBe("generated");
  });

  it("keeps the author's cover of a PDF, and still counts its pages", async () => {
    const uploaded = await publish({});
    await testApp.coversDone();
    const book = await bookById(uploaded.id);
    expect(book.coverImageUrl).toBe(uploaded.coverImageUrl);
    expect(book.pageCount).toBe(1);
    expect((await rowOf(uploaded.id)).coverSource).toBe("author");
  });

  it.each(["book.docx", "book.doc"])("gives a Word book (%s) a typographic cover with its upload, and no page count", async (name) => {
    const book = await publish({ file: fixture(name), coverImage: null, title: "Война и мир" });
    await expectServedCover(book.coverImageUrl);
    expect(book.pageCount).toBeNull();
    expect((await rowOf(book.id)).coverSource).toBe("generated");
  });

  it("keeps the author's cover of a Word book", async () => {
    const book = await publish({ file: fixture("book.docx") });
    expect((await rowOf(book.id)).coverSource).toBe("author");
  });

  it("accepts a PDF that passes sniffing but that pdf.js cannot open: the placeholder stays, nothing is stored", async () => {
    const coversBefore = coverFiles();
    const broken = { buffer: Buffer.from("%PDF-1.7\nnot really a document\n%%EOF\n", "latin1"), name: "broken.pdf" };
    const uploaded = await publish({ file: broken, coverImage: null });
    await testApp.coversDone();
    const book = await bookById(uploaded.id);
    expect(book.coverImageUrl).toBeNull();
    expect(book.pageCount).toBeNull();
    expect(coverFiles()).toEqual(coversBefore);
  });

  it("redraws a Word book's generated cover when its title changes, and removes the old one", async () => {
    const book = await publish({ file: fixture("book.docx"), coverImage: null, title: "First title" });
    const edited = (await sendBookForm(author.agent.put(`/api/books/${book.id}`), { file: null, coverImage: null, title: "Second title" }).expect(200))
      .body as BookCard;
    await expectServedCover(edited.coverImageUrl);
    expect(edited.coverImageUrl).not.toBe(book.coverImageUrl);
    await request(testApp.app).get(book.coverImageUrl!).expect(404);
    // An edit that changes neither title nor genre keeps the cover.
    const again = (await sendBookForm(author.agent.put(`/api/books/${book.id}`), { file: null, coverImage: null, title: "Second title", description: "New words." }).expect(200))
      .body as BookCard;
    expect(again.coverImageUrl).toBe(edited.coverImageUrl);
  });

  it("replaces a generated cover with the author's, which a later title change keeps", async () => {
    const book = await publish({ file: fixture("book.docx"), coverImage: null });
    const withCover = (await sendBookForm(author.agent.put(`/api/books/${book.id}`), { file: null, coverImage: fixture("cover.png") }).expect(200)).body as BookCard;
    expect(withCover.coverImageUrl).not.toBe(book.coverImageUrl);
    expect((await rowOf(book.id)).coverSource).toBe("author");
    await request(testApp.app).get(book.coverImageUrl!).expect(404);
    const retitled = (await sendBookForm(author.agent.put(`/api/books/${book.id}`), { file: null, coverImage: null, title: "Another title" }).expect(200))
      .body as BookCard;
    expect(retitled.coverImageUrl).toBe(withCover.coverImageUrl);
  });

  it("keeps the author's cover given while the first page was being drawn, and leaves no file of the drawn one", async () => {
    const coversBefore = coverFiles();
    const uploaded = await publish({ coverImage: null });
    const edited = (await sendBookForm(author.agent.put(`/api/books/${uploaded.id}`), { file: null, coverImage: fixture("cover.jpg") }).expect(200))
      .body as BookCard;
    await testApp.coversDone();
    const book = await bookById(uploaded.id);
    expect(book.coverImageUrl).toBe(edited.coverImageUrl);
    expect(book.pageCount).toBe(1);
    expect(coverFiles().length).toBe(coversBefore.length + 3);
  });

  it("leaves no cover file for a PDF deleted before its first page was drawn", async () => {
    const coversBefore = coverFiles();
    const uploaded = await publish({ coverImage: null });
    await author.agent.delete(`/api/books/${uploaded.id}`).expect(204);
    await testApp.coversDone();
    expect(coverFiles()).toEqual(coversBefore);
  });

  it("answers every one of a dozen Word books uploaded at once, each with its cover (docs/decisions/0052)", async () => {
    // Drawn in the server's process, a dozen covers at once ended it with a segmentation fault one time in three.
    const authors = await Promise.all(Array.from({ length: 12 }, () => signedInAgent(testApp.app)));
    const answers = await Promise.all(
      authors.map(({ agent }, index) =>
        sendBookForm(agent.post("/api/books"), { file: fixture(index % 2 ? "book.doc" : "book.docx"), coverImage: null, title: `At once ${index}` }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    // Most are drawn with their upload; one whose drawing failed is published with the placeholder and drawn by the queue.
    const drawnAtOnce = answers.filter((answer) => (answer.body as BookCard).coverImageUrl !== null).length;
    expect(drawnAtOnce).toBeGreaterThanOrEqual(answers.length / 2);
    await testApp.coversDone();
    for (const answer of answers) {
      const book = await bookById((answer.body as BookCard).id);
      expect(book.coverImageUrl).toMatch(/^\/covers\/[0-9a-f-]{36}-600\.webp$/);
    }
    await expectServedCover((await bookById((answers[0]!.body as BookCard).id)).coverImageUrl);
  }, 60_000);

  it("publishes a Word book whose cover could not be drawn, with the placeholder, and the queue draws it", async () => {
    drawingFailsOnce();
    const uploaded = await publish({ file: fixture("book.docx"), coverImage: null, title: "Drawn later" });
    expect(uploaded.coverImageUrl).toBeNull();
    await testApp.coversDone();
    const book = await bookById(uploaded.id);
    await expectServedCover(book.coverImageUrl);
    expect((await rowOf(uploaded.id)).coverSource).toBe("generated");
  });

  it("does not keep an upload waiting behind too many covers being drawn: the queue draws its cover", async () => {
    const draw = vi.mocked(drawGeneratedCoverApart);
    const real = draw.getMockImplementation()!;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Drawings that hold until released, then answer stand-in bytes: only how many wait matters here.
    draw.mockImplementation(async (_drawing, sizes) => {
      await held;
      return sizes.widths.map((width) => ({ width, webp: Buffer.from(`held ${width}`) }));
    });
    try {
      // Two being drawn and sixteen waiting: as many as an upload waits behind.
      const waiting = Array.from({ length: 18 }, (_, index) =>
        sendBookForm(author.agent.post("/api/books"), { file: fixture("book.docx"), coverImage: null, title: `Waiting ${index}` }).then((answer) => answer),
      );
      await expect.poll(coverDrawingsBusy, { timeout: 30_000 }).toBe(true);
      draw.mockImplementation(real);
      const uploaded = await publish({ file: fixture("book.docx"), coverImage: null, title: "Not waiting" });
      expect(uploaded.coverImageUrl).toBeNull();
      release();
      expect((await Promise.all(waiting)).map((answer) => answer.status)).toEqual(waiting.map(() => 201));
      await testApp.coversDone();
      await expectServedCover((await bookById(uploaded.id)).coverImageUrl);
    } finally {
      draw.mockImplementation(real);
      release();
    }
  }, 60_000);

  it("keeps an edit whose new cover could not be drawn: the old title's cover goes, the queue draws the new one", async () => {
    const book = await publish({ file: fixture("book.docx"), coverImage: null, title: "Old title" });
    drawingFailsOnce();
    const edited = (await sendBookForm(author.agent.put(`/api/books/${book.id}`), { file: null, coverImage: null, title: "New title" }).expect(200)).body as BookCard;
    expect(edited.title).toBe("New title");
    expect(edited.coverImageUrl).toBeNull();
    await request(testApp.app).get(book.coverImageUrl!).expect(404);
    await testApp.coversDone();
    const redrawn = await bookById(book.id);
    await expectServedCover(redrawn.coverImageUrl);
    expect(redrawn.coverImageUrl).not.toBe(book.coverImageUrl);
  });

  it("takes up, at the next start, a recent PDF or Word book the previous process left without a cover", async () => {
    const uploaded = await publish({ coverImage: null });
    const word = await publish({ file: fixture("book.docx"), coverImage: null });
    await testApp.coversDone();
    // As if the process had ended before its queue drew them: the rows without cover or page count.
    await testApp.database.db.update(books).set({ coverImageUrl: null, coverSource: null, pageCount: null }).where(eq(books.id, uploaded.id));
    await testApp.database.db.update(books).set({ coverImageUrl: null, coverSource: null }).where(eq(books.id, word.id));
    const restarted = testApp.anotherProcess();
    try {
      await expect.poll(async () => (await rowOf(uploaded.id)).pageCount, { timeout: 15_000 }).toBe(1);
      await expect.poll(async () => (await rowOf(word.id)).coverSource, { timeout: 15_000 }).toBe("generated");
      await restarted.coverQueue.idle();
      expect((await rowOf(uploaded.id)).coverSource).toBe("generated");
    } finally {
      restarted.close();
    }
  });
});
