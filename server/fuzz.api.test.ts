import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesUnder, fixture } from "../test/helpers/book-fixtures.ts";
import type { FileSamples } from "../test/helpers/fuzz-inputs.ts";
import { multipartBody } from "../test/helpers/multipart.ts";
import { FUZZ_ROUTES, type FuzzRoute, type FuzzTargets, type PersonaName, inputsPerRoute } from "../test/helpers/fuzz-routes.ts";
import { listRoutes } from "../test/helpers/list-routes.ts";
import { type ListeningApp, type RawRequest, type RawResponse, RawHttpClient, jsonOf, listen, postJson, sessionCookieOf, signUp } from "../test/helpers/raw-http.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp } from "../test/helpers/test-app.ts";
import { partialMd5 } from "./books/partial-md5.ts";
import { type WriteSnapshot, rowCounts, settledFiles, takeSnapshot, waitUntil } from "../test/helpers/write-check.ts";

/**
 * Property-based fuzzing of every route (OWASP ASVS 5.0 L2; docs/reliability.md#bad-input-fuzzed): whatever the input,
 * no 5xx; every refusal is JSON with a message and a code, and writes no row and leaves no file.
 * A case is one request checked; each generated input is sent anonymously and as a signed-in reader
 * (and as the admin where the admin sees more). FUZZ_RUNS sets the cases in all, FUZZ_SEED replays a run.
 */
const backend = process.env.PLUME_TEST_BACKEND ?? "pglite";
const seed = Number(process.env.FUZZ_SEED ?? 20_260_506);
// Every route, persona and property is checked on each `npm test` with this many cases; the soak
// (tens of thousands) is `npm run reliability -- --mode fuzz` (docs/reliability.md#bad-input-fuzzed).
const totalCases = Number(process.env.FUZZ_RUNS ?? 4_000);

interface Persona {
  name: PersonaName;
  cookie?: string;
  /** Restores the persona's session after a case signed it out or into another account. */
  signIn(): Promise<void>;
}

let testApp: TestApp;
let listening: ListeningApp;
let client: RawHttpClient;
let targets: FuzzTargets;
let baseline: WriteSnapshot;
const personas = new Map<PersonaName, Persona>();
const statuses = new Map<number, number>();
let casesChecked = 0;
let inputsTried = 0;
const startedAt = performance.now();

function send(request: RawRequest, persona?: Persona): Promise<RawResponse> {
  const cookie = [persona?.cookie, request.headers?.Cookie].filter(Boolean).join("; ");
  return client.send({ ...request, headers: { ...request.headers, ...(cookie ? { Cookie: cookie } : {}) } });
}

async function signedInPersona(name: PersonaName, overrides: Record<string, string> = {}): Promise<Persona & { id: string; account: { username: string } }> {
  const { id, cookie, account } = await signUp(client, overrides);
  const persona: Persona & { id: string; account: { username: string } } = {
    name,
    id,
    account,
    cookie,
    async signIn() {
      const signedIn = await postJson(client, "/api/auth/login", { username: account.username, password: account.password });
      if (signedIn.status !== 200) throw new Error(`could not sign the ${name} in again: ${signedIn.body.toString()}`);
      persona.cookie = sessionCookieOf(signedIn);
    },
  };
  return persona;
}

async function publishBook(author: Persona, samples: FileSamples): Promise<number> {
  const boundary = "seedBoundary";
  const body = multipartBody(
    [
      { name: "title", content: Buffer.from("Seeded book") },
      { name: "description", content: Buffer.from("A book the fuzzer aims at.") },
      { name: "genre", content: Buffer.from("novela") },
      { name: "file", filename: "book.pdf", content: samples.pdf },
      { name: "coverImage", filename: "cover.png", content: samples.cover },
    ],
    boundary,
  );
  const response = await send({ method: "POST", path: "/api/books", headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` }, body }, author);
  if (response.status !== 201) throw new Error(`could not seed a book: ${response.body.toString()}`);
  return (jsonOf(response) as { id: number }).id;
}

function describeCase(route: FuzzRoute, persona: Persona, request: RawRequest, response: RawResponse): string {
  const body = request.body === undefined ? "" : Buffer.from(request.body).toString("utf8").slice(0, 300);
  return `${route.name} as ${persona.name}: ${request.method} ${request.path.slice(0, 200)} ${JSON.stringify(request.headers)} ${JSON.stringify(body)} -> ${response.status} ${response.body.toString("utf8").slice(0, 300)}`;
}

/** Sends one case and checks the properties; an accepted case may write, so it moves the baseline. */
async function checkCase(route: FuzzRoute, persona: Persona, request: RawRequest): Promise<void> {
  const response = await send(request, persona);
  casesChecked += 1;
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  const where = () => describeCase(route, persona, request, response);
  if (response.status >= 500) throw new Error(`server error: ${where()}`);
  if (response.status >= 400) {
    const body = jsonOf(response) as { message?: unknown; code?: unknown } | undefined;
    if (!String(response.headers["content-type"]).startsWith("application/json")) throw new Error(`refusal not JSON: ${where()}`);
    if (typeof body?.message !== "string" || body.message === "" || typeof body.code !== "string" || body.code === "") {
      throw new Error(`refusal without message and code: ${where()}`);
    }
    const rows = await rowCounts(testApp);
    if (rows !== baseline.rows) throw new Error(`refusal wrote rows (users/books/downloads/reviews/payments ${baseline.rows} -> ${rows}): ${where()}`);
    const files = await settledFiles(testApp, baseline.files);
    if (files !== baseline.files) throw new Error(`refusal left files:\n${files}\n${where()}`);
    return;
  }
  baseline = await takeSnapshot(testApp);
  if (route.changesSession && persona.cookie) await persona.signIn();
}

beforeAll(async () => {
  testApp = await createTestApp({ METRICS_TOKEN: "fuzz-metrics-token-0123456" });
  listening = await listen(testApp.app);
  client = new RawHttpClient(listening.port);
  const samples: FileSamples = {
    pdf: readFileSync(fixture("book.pdf")),
    // A tiny real image keeps the cover work of accepted uploads cheap.
    cover: await sharp({ create: { width: 4, height: 6, channels: 3, background: "#a33" } }).png().toBuffer(),
  };
  const reader = await signedInPersona("reader");
  const otherAuthor = await signedInPersona("reader");
  const admin = await signedInPersona("admin", { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  personas.set("anonymous", { name: "anonymous", signIn: async () => {} });
  personas.set("reader", reader);
  personas.set("admin", admin);
  const bookIds = [await publishBook(reader, samples), await publishBook(otherAuthor, samples)];
  // KOReader's sign-in for the reader: the MD5 of a key typed as shown (docs/product.md#progress-sync).
  const created = await postJson(client, "/api/e-reader-keys", { name: "KOReader" }, reader.cookie);
  const koreader = {
    user: reader.account.username,
    keyDigest: createHash("md5").update((jsonOf(created) as { key: string }).key).digest("hex"),
    documents: [await partialMd5(fixture("book.pdf"))],
  };
  targets = { samples, bookIds, userIds: [reader.id, otherAuthor.id, admin.id], koreader };
  // A download and a rating give the reader's and the admin's reads something to find.
  await send({ method: "POST", path: `/api/books/${bookIds[1]}/download` }, reader);
  await postJson(client, "/rate", { bookId: bookIds[1], userId: reader.id, rating: 4 }, reader.cookie);
  baseline = await takeSnapshot(testApp);
  console.log(`fuzz: seed ${seed} (FUZZ_SEED to replay), at least ${totalCases} cases (FUZZ_RUNS), backend ${backend}`);
});

afterAll(async () => {
  const histogram = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}:${count}`).join(" ");
  const serverErrors = [...statuses.entries()].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(`fuzz summary: backend=${backend} seed=${seed} cases=${casesChecked} (${inputsTried} inputs) in ${seconds}s; statuses ${histogram}; 5xx=${serverErrors}`);
  client?.close();
  await listening?.close();
  await testApp?.close();
});

describe("fuzzing every route with hostile input", () => {
  it("has a fuzz rule for every route the app serves", () => {
    expect(FUZZ_ROUTES.map((route) => route.name).sort()).toEqual(listRoutes(testApp.app));
  });

  for (const [route, numRuns] of inputsPerRoute(totalCases)) {
    it(`${route.name}: no 5xx, JSON refusals that write nothing (${numRuns} inputs × ${route.personas.join(", ")})`, { timeout: 600_000 }, async () => {
      const result = await fc.check(
        fc.asyncProperty(route.requests(targets), async (request) => {
          inputsTried += 1;
          for (const name of route.personas) await checkCase(route, personas.get(name)!, request);
        }),
        { seed, numRuns },
      );
      // The shrunk case alone: fast-check's own report would print whole multi-kilobyte requests.
      if (result.failed) throw new Error(`seed ${result.seed}, path ${result.counterexamplePath}: ${(result.errorInstance as Error).message}`);
    });
  }

  it("leaves no temporary upload behind", async () => {
    expect(await waitUntil(() => filesUnder(testApp.store.temp.dir).length === 0, 2_000)).toBe(true);
  });
});
