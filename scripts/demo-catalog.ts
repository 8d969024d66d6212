import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { BookFieldsInput } from "../shared/book-schemas.ts";
import { fixture } from "../test/helpers/book-fixtures.ts";

/** A book of the demo catalog: its fields and the fixture files sent with it. */
interface DemoBook extends BookFieldsInput {
  file: string;
  cover: string;
}

/** Varied titles, lengths, languages and cover types, so cards look as they do with real content. */
const DEMO_BOOKS: DemoBook[] = [
  {
    title: "Mañana en París",
    description: "Una novela sobre una traductora que cruza París al amanecer para entregar un manuscrito perdido.",
    genre: "novela",
    language: "es",
    file: "book.pdf",
    cover: "cover.jpg",
  },
  {
    title: "The Lighthouse Keeper's Ledger",
    description: "A quiet mystery told through the account book of a keeper on a northern island, one entry per night.",
    genre: "misterio",
    language: "en",
    file: "book.docx",
    cover: "cover.png",
  },
  {
    title: "Les jardins suspendus",
    description: "Roman d'une famille de jardiniers lyonnais sur trois générations, entre crues du Rhône et marchés du dimanche.",
    genre: "ficcion",
    language: "fr",
    file: "book.doc",
    cover: "cover.webp",
  },
  {
    title: "Small Ledgers, Big Plans",
    description: "Practical bookkeeping for independent authors: invoices, royalties, taxes and a calm end of the month.",
    genre: "negocios",
    language: "en",
    file: "book.pdf",
    cover: "cover.jpg",
  },
  {
    title: "Historia breve del papel",
    description: "De los talleres de Samarcanda a las imprentas de Valencia: cómo el papel cambió la forma de leer.",
    genre: "historia",
    language: "es",
    file: "book.pdf",
    cover: "cover.png",
  },
  {
    title: "Le renard qui comptait les étoiles",
    description: "Un album pour les petits : chaque nuit, un renard curieux compte les étoiles et s'endort avant la fin.",
    genre: "libroInfantil",
    language: "fr",
    file: "book.pdf",
    cover: "cover.webp",
  },
];

const MIME_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};

function filePart(name: string): Blob {
  const extension = name.split(".").pop()!;
  return new Blob([readFileSync(fixture(name))], { type: MIME_TYPES[extension] });
}

async function expectStatus(response: Response, status: number, what: string): Promise<Response> {
  if (response.status !== status) throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** Registers an author and returns the session cookie that signs the next calls in. */
async function registerAuthor(baseUrl: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({
      firstName: "Lucía",
      lastName: "Moreau",
      username: "lucia_moreau",
      email: "lucia@plume.test",
      password: "secret-pass",
      confirmPassword: "secret-pass",
    }),
  });
  await expectStatus(response, 201, "Registration");
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
}

async function uploadBook(baseUrl: string, headers: Record<string, string>, cookie: string, book: DemoBook): Promise<void> {
  const form = new FormData();
  for (const name of ["title", "description", "genre", "language"] as const) form.set(name, book[name] ?? "");
  form.set("file", filePart(book.file), basename(book.file));
  form.set("coverImage", filePart(book.cover), basename(book.cover));
  const response = await fetch(`${baseUrl}/api/books`, { method: "POST", headers: { ...headers, Cookie: cookie }, body: form });
  await expectStatus(response, 201, `Upload of "${book.title}"`);
}

/**
 * Publishes a few books with covers through the API, so the landing page and the catalog show real
 * cards. `headers` go with every call: a production server's session cookie is Secure, so it is only
 * set for a request that came, as far as the server can tell, through its TLS proxy.
 */
export async function seedDemoCatalog(baseUrl: string, headers: Record<string, string> = {}): Promise<void> {
  const cookie = await registerAuthor(baseUrl, headers);
  for (const book of DEMO_BOOKS) await uploadBook(baseUrl, headers, cookie, book);
}
