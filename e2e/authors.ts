import { readFileSync } from "node:fs";
import type { APIRequestContext, APIResponse } from "playwright-core";
import { fixture } from "../test/helpers/book-fixtures.ts";

export const E2E_PASSWORD = "a-good-password";

/** These helpers serve the benchmarks too, outside Vitest: a failed setup throws with the server's answer. */
async function expectCreated(response: APIResponse): Promise<void> {
  if (response.status() !== 201) throw new Error(`${response.url()} answered ${response.status()}: ${await response.text()}`);
}

export interface RegisteredAccount {
  id: string;
  username: string;
  email: string | undefined;
}

/** Registers an account through the API in the given browser context; a unique username unless one is given. */
export async function registerAccount(
  request: APIRequestContext,
  { firstName, lastName, username = `${firstName.toLowerCase()}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`, email }: { firstName: string; lastName: string; username?: string; email?: string },
): Promise<RegisteredAccount> {
  const response = await request.post("/api/auth/register", {
    data: { firstName, lastName, username, ...(email ? { email } : {}), password: E2E_PASSWORD, confirmPassword: E2E_PASSWORD },
  });
  await expectCreated(response);
  return { id: ((await response.json()) as { id: string }).id, username, email };
}

export interface PdfBook {
  title: string;
  description?: string;
  genre?: string;
  language?: string;
  withCover?: boolean;
  /** Another of the fixtures' books instead of the PDF. */
  file?: keyof typeof FIXTURE_TYPES;
  /** A PDF of the test's own instead of the fixtures' one-page book. */
  pdf?: Buffer;
}

const FIXTURE_TYPES = {
  "book.pdf": "application/pdf",
  "book.docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "book.doc": "application/msword",
  "book.epub": "application/epub+zip",
};

/** Publishes the fixtures' PDF (or `file`, or the `pdf` given, and cover) as the signed-in account of the request; answers the book's id. */
export async function publishPdf(
  request: APIRequestContext,
  { title, description = "Un libro de prueba.", genre = "novela", language = "es", withCover = false, file = "book.pdf", pdf }: PdfBook,
): Promise<number> {
  const response = await request.post("/api/books", {
    multipart: {
      title,
      description,
      genre,
      language,
      file: pdf ? { name: "book.pdf", mimeType: "application/pdf", buffer: pdf } : { name: file, mimeType: FIXTURE_TYPES[file], buffer: readFileSync(fixture(file)) },
      ...(withCover ? { coverImage: { name: "cover.png", mimeType: "image/png", buffer: readFileSync(fixture("cover.png")) } } : {}),
    },
  });
  await expectCreated(response);
  return ((await response.json()) as { id: number }).id;
}
