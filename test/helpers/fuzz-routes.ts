import fc from "fast-check";
import type { RawRequest } from "./raw-http.ts";
import { type FileSamples, type JsonFields, type RawBody, anyBody, hostileHeaders, hostileIdText, hostileMultipart, hostileQuery, hostileText, onTheWire, taintedText } from "./fuzz-inputs.ts";
import { buildWalletProofMessage } from "../../shared/wallet-proof.ts";

/** Who sends a case: nobody, a signed-in reader who owns a book, or the admin. */
export type PersonaName = "anonymous" | "reader" | "admin";

/** What the fuzzer knows of the seeded data, so some cases aim at real rows. */
export interface FuzzTargets {
  samples: FileSamples;
  /** The reader's own book, another author's book. */
  bookIds: number[];
  /** The reader, the other author and the admin. */
  userIds: string[];
  /** KOReader's sign-in for the reader (username, MD5 of one of its e-reader keys), and the KOReader ids of the seeded books' files. */
  koreader: { user: string; keyDigest: string; documents: string[] };
}

export interface FuzzRoute {
  name: string;
  /** This route's share of the requests. */
  weight: number;
  personas: PersonaName[];
  /** A success on it changes the caller's session (sign-in, sign-up, sign-out): the persona signs in again. */
  changesSession?: boolean;
  requests(targets: FuzzTargets): fc.Arbitrary<RawRequest>;
}

/** A good string, or the same with a hostile piece slipped in (it passes length and type checks). */
const goodOrTainted = (good: fc.Arbitrary<string>) => fc.oneof({ arbitrary: good, weight: 2 }, { arbitrary: taintedText(good), weight: 3 });

const words = fc.constantFrom("Mañana en París", "Le Petit Prince", "A", "Ünïcödé", "    padded    ", "日本語の本");
const genres = fc.oneof({ arbitrary: fc.constantFrom("novela", "historia", "Ficción", "libro infantil"), weight: 4 }, fc.constantFrom("FICCION", "all", "", "poetry"));
const languages = fc.oneof({ arbitrary: fc.constantFrom("en", "es", "fr"), weight: 4 }, fc.constantFrom("de", "EN", ""));
const contentRatings = fc.oneof({ arbitrary: fc.constantFrom("general", "teen", "mature", "explicit"), weight: 4 }, fc.constantFrom("adult", "EXPLICIT", "", "18+"));
const usernames = fc.stringMatching(/^[a-z]{3,12}$/);
const walletAddresses = fc.oneof(
  fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => `0x${Buffer.from(bytes).toString("hex")}`),
  fc.constantFrom("0x0000000000000000000000000000000000000000", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED"),
);

/** Sign-In with Ethereum messages of the right shape (for a nonce never issued), and text that is not one. */
const walletProofMessages = fc.oneof(
  fc
    .tuple(walletAddresses, fc.stringMatching(/^[0-9a-f]{32}$/), fc.constantFrom("127.0.0.1", "plume.test", "evil.example"), fc.constantFrom(31337, 1, 137))
    .map(([address, nonce, domain, chainId]) =>
      buildWalletProofMessage({ domain, address, statement: "Connect.", uri: `http://${domain}/dashboard`, chainId, nonce, issuedAt: new Date().toISOString() }),
    ),
  words,
);
const signatures = fc.oneof(
  fc.uint8Array({ minLength: 65, maxLength: 65 }).map((bytes) => `0x${Buffer.from(bytes).toString("hex")}`),
  fc.constantFrom("0x", "0x1234", `0x${"0".repeat(130)}`),
);

const reviewIdText = () => fc.oneof({ arbitrary: fc.constantFrom("1", "2", "999999"), weight: 1 }, { arbitrary: hostileIdText, weight: 3 });
const bookIdText = ({ bookIds }: FuzzTargets) => fc.oneof({ arbitrary: fc.constantFrom(...bookIds.map(String)), weight: 1 }, { arbitrary: hostileIdText, weight: 3 });
const userIdText = ({ userIds }: FuzzTargets) => fc.oneof(fc.constantFrom(...userIds), fc.uuid(), hostileIdText);
const bookIdJson = ({ bookIds }: FuzzTargets) => fc.constantFrom(...bookIds.map(String));

const withHeaders = (request: fc.Arbitrary<Omit<RawRequest, "headers"> & { headers?: Record<string, string> }>) =>
  fc.tuple(request, hostileHeaders).map(([shape, extra]) => ({ ...shape, headers: { ...shape.headers, ...extra } }));

const sending = (method: string, path: string, body: RawBody | undefined): RawRequest => ({
  method,
  path,
  headers: body?.contentType ? { "Content-Type": body.contentType } : {},
  ...(body ? { body: body.body } : {}),
});

function jsonRoute(name: string, weight: number, personas: PersonaName[], fields: (targets: FuzzTargets) => JsonFields, changesSession = false): FuzzRoute {
  const [method, path] = name.split(" ") as [string, string];
  return {
    name,
    weight,
    personas,
    changesSession,
    requests: (targets) => withHeaders(anyBody(fields(targets), targets.samples).map((body) => sending(method, path, body))),
  };
}

/** A JSON call whose path names an object (a book, an account). */
function jsonRouteAt(name: string, weight: number, personas: PersonaName[], path: (targets: FuzzTargets) => fc.Arbitrary<string>, fields: (targets: FuzzTargets) => JsonFields): FuzzRoute {
  const [method] = name.split(" ") as [string];
  return {
    name,
    weight,
    personas,
    requests: (targets) => withHeaders(fc.tuple(path(targets), anyBody(fields(targets), targets.samples)).map(([at, body]) => sending(method, at, body))),
  };
}

function getRoute(name: string, weight: number, personas: PersonaName[], path: (targets: FuzzTargets) => fc.Arbitrary<string>, queryKeys: (targets: FuzzTargets) => Record<string, fc.Arbitrary<string>> = () => ({})): FuzzRoute {
  const [method] = name.split(" ") as [string];
  return {
    name,
    weight,
    personas,
    requests: (targets) => withHeaders(fc.tuple(path(targets), hostileQuery(queryKeys(targets))).map(([base, query]) => ({ method, path: base + query }))),
  };
}

const fixed = (path: string) => () => fc.constant(path);
const withId = (prefix: string, suffix: string, ids: (targets: FuzzTargets) => fc.Arbitrary<string>) => (targets: FuzzTargets) =>
  ids(targets).map((id) => `${prefix}${onTheWire(id)}${suffix}`);

// Series and tags (docs/product.md#series-and-tags): ids of nobody's series, volumes good and absurd, tag lists short and long.
const seriesChoices = fc.constantFrom("", "1", "999999", "abc", "-1", "0", "1.5");
const seriesVolumes = fc.constantFrom("", "1", "1.5", "0", "-2", "10000", "1e3", "1.234", "NaN");
const tagLists = fc.oneof(goodOrTainted(fc.constantFrom("Science Fiction, space-opera", "", "a", "x".repeat(41), ", ,", "Émile,  émile ")), fc.constantFrom(Array.from({ length: 11 }, (_, i) => `tag ${i}`).join(",")));
const bookFormFields = () => ({ title: goodOrTainted(words), description: goodOrTainted(words), genre: genres, language: languages, contentRating: contentRatings, seriesId: seriesChoices, seriesVolume: seriesVolumes, tags: tagLists });
const seriesIdText = () => fc.oneof(fc.constantFrom("1", "2", "999999"), hostileIdText);

const everyone: PersonaName[] = ["anonymous", "reader"];

const opdsPaging = {
  page: fc.constantFrom("1", "2", "500", "501", "0", "-1", "1e9", "1.5"),
  size: fc.constantFrom("1", "20", "100", "101", "0", "100000"),
  start: fc.constantFrom("0", "-1"),
};
/** What an e-reader app could send as its Authorization: missing, another scheme, broken base64, a user without a key. */
const basicCredentials = ({ userIds }: FuzzTargets) =>
  fc.oneof(
    fc.constant(undefined),
    fc.constantFrom("Basic", "Basic ", "Basic Og==", "Basic !!!", "Bearer abc", "basic   ", `Basic ${"A".repeat(9000)}`),
    fc.tuple(fc.oneof(usernames, fc.constantFrom(...userIds), hostileText), fc.oneof(fc.constant("7KQ2-M9XD-4T0P-HB3W"), hostileText)).map(
      ([user, key]) => `Basic ${Buffer.from(`${user}:${key}`).toString("base64")}`,
    ),
  );
/** What KOReader's sync could send to sign in: nothing, a name alone, a wrong or malformed digest, or the reader's own key. */
const koreaderSignIn = ({ userIds, koreader }: FuzzTargets) =>
  fc.oneof(
    fc.constant<Record<string, string>>({}),
    fc.oneof(usernames, fc.constantFrom(...userIds)).map((user) => ({ "x-auth-user": user })),
    fc
      .tuple(fc.oneof(usernames, fc.constant(koreader.user)), fc.constantFrom("0".repeat(32), "Z".repeat(32), "", " ", "7KQ2-M9XD-4T0P-HB3W", "a".repeat(4000)))
      .map(([user, key]) => ({ "x-auth-user": user, "x-auth-key": key })),
    { arbitrary: fc.constant({ "x-auth-user": koreader.user, "x-auth-key": koreader.keyDigest }), weight: 4 },
  );
/** A KOReader document id: a seeded book's file, another file's, or no id at all. */
const koreaderDocuments = ({ koreader }: FuzzTargets) => fc.oneof(fc.constantFrom(...koreader.documents), fc.constantFrom("0".repeat(32), "A".repeat(32)), hostileIdText);
const withAdmin: PersonaName[] = ["anonymous", "reader", "admin"];
const byteRanges = fc.constantFrom("bytes=0-99", "bytes=-50", "bytes=100-", "bytes=99-0", "bytes=999999999-", "bytes=0-1,5-9", "bytes=abc", "bytes=-0", "pages=1-2", `bytes=${"9".repeat(40)}-`);

/** Every route of the app (server/app.ts), with how its input can go wrong. */
export const FUZZ_ROUTES: FuzzRoute[] = [
  // A valid sign-up or sign-in costs a slow password hash (scrypt): these get few inputs, each aimed.
  jsonRoute("POST /api/auth/register", 1, everyone, () => ({
    firstName: { text: words },
    lastName: { text: words },
    username: { text: usernames },
    email: { text: fc.constantFrom("ana@example.test", "") },
    password: { text: fc.constant("secret-pass") },
    confirmPassword: { text: fc.constant("secret-pass") },
  }), true),
  jsonRoute("POST /api/auth/login", 0.8, everyone, () => ({
    username: { text: taintedText(usernames) },
    password: { text: fc.constantFrom("secret-pass", "short") },
  }), true),
  // Each accepted sign-out costs a sign-in (a slow password hash) to restore the reader, and the body is ignored anyway.
  jsonRoute("POST /api/auth/logout", 0.3, everyone, () => ({}), true),
  getRoute("GET /api/auth/user", 2, everyone, fixed("/api/auth/user")),
  jsonRoute("POST /api/auth/forgot-password", 2, everyone, () => ({ email: { text: goodOrTainted(fc.constantFrom("ana@example.test", "nobody@example.test", "not-an-address")) } })),
  // Tokens nobody was given, well-formed or not: a refusal each, and no password hashed for them.
  jsonRoute("POST /api/auth/reset-password", 2, everyone, () => ({
    token: { text: goodOrTainted(fc.constantFrom("A".repeat(43), "abc", "")) },
    password: { text: fc.constantFrom("secret-pass", "short") },
    confirmPassword: { text: fc.constantFrom("secret-pass", "other-pass") },
  })),
  getRoute("GET /api/auth/reset-password/check", 1, everyone, fixed("/api/auth/reset-password/check"), () => ({ token: goodOrTainted(fc.constantFrom("A".repeat(43), "abc", "")) })),
  // Tokens nobody was given, well-formed or not: a refusal each, and no account touched.
  jsonRoute("POST /api/auth/verify-email", 2, everyone, () => ({ token: { text: goodOrTainted(fc.constantFrom("A".repeat(43), "abc", "")) } })),
  // The body is ignored; the admin's proven address makes this a 409, a reader's sends a link to its inbox.
  jsonRoute("POST /api/auth/verify-email/resend", 0.5, everyone, () => ({})),
  jsonRoute("PUT /api/auth/language", 1, everyone, () => ({ language: { text: languages } })),
  // The settings calls. The reader's password is never among the current passwords sent, and the
  // usernames are never valid: a success would sign the reader out, rename or delete it under the fuzzer.
  jsonRoute("PATCH /api/account/profile", 1, everyone, () => ({
    firstName: { text: goodOrTainted(words) },
    lastName: { text: goodOrTainted(words) },
    username: { text: goodOrTainted(fc.constantFrom("ab", "has space", "has@sign", "x".repeat(51))) },
  })),
  jsonRoute("PUT /api/account/email", 1, everyone, () => ({
    email: { text: goodOrTainted(fc.constantFrom("moved@example.test", "not-an-address", "")) },
    currentPassword: { text: goodOrTainted(fc.constantFrom("wrong-pass", "")) },
  })),
  jsonRoute("PUT /api/account/password", 1, everyone, () => ({
    currentPassword: { text: goodOrTainted(fc.constantFrom("wrong-pass", "")) },
    password: { text: fc.constantFrom("another-pass", "short") },
    confirmPassword: { text: fc.constantFrom("another-pass", "other-pass") },
  })),
  jsonRoute("PUT /api/account/notifications", 1, everyone, () => ({ paymentCompleted: { json: fc.constantFrom("true", "false", "0", "\"yes\"", "null") } })),
  jsonRoute("PUT /api/account/e-reader-email", 1, everyone, () => ({
    eReaderEmail: { json: fc.constantFrom("\"ana@kindle.com\"", "\"\"", "null", "\"ana@kindle\"", "\"<ana@kindle.com>\"", "42", "[]", `"${"a".repeat(300)}@kindle.com"`) },
  })),
  jsonRoute("PUT /api/account/digest", 1, everyone, () => ({ digestFrequency: { json: fc.constantFrom('"off"', '"instant"', '"weekly"', '"daily"', '"OFF"', "null", "1", "[]") } })),
  // Follows: real authors, unknown ids, the caller's own id (refused), hostile ids.
  ...(["GET", "PUT", "DELETE"] as const).map((method) =>
    jsonRouteAt(`${method} /api/authors/:id/follow`, 1, everyone, withId("/api/authors/", "/follow", userIdText), () => ({})),
  ),
  getRoute("GET /api/following", 1, everyone, fixed("/api/following")),
  // A mail program's one-click unsubscribe: tokens nobody was given, well-formed or not, from anyone.
  getRoute("POST /unsubscribe", 2, everyone, fixed("/unsubscribe"), (targets) => ({
    token: fc.oneof(
      fc.constantFrom(...targets.userIds).map((id) => `${id}.${"A".repeat(43)}`),
      fc.constantFrom("", "abc", `${"0".repeat(36)}.${"A".repeat(43)}`),
      hostileIdText,
    ),
  })),
  jsonRoute("PUT /api/account/explicit-books", 1, everyone, () => ({ showExplicit: { json: fc.constantFrom("true", "false", "1", "\"on\"", "null", "[]") } })),
  getRoute("GET /api/account/sessions", 1, everyone, fixed("/api/account/sessions")),
  jsonRoute("POST /api/account/sessions/sign-out-others", 0.5, everyone, () => ({})),
  getRoute("DELETE /api/account/sessions/:id", 1, everyone, withId("/api/account/sessions/", "", () => fc.oneof(fc.stringMatching(/^[0-9a-f]{32}$/), hostileIdText))),
  getRoute("GET /api/account/export", 0.5, everyone, fixed("/api/account/export")),
  getRoute("GET /api/account/deletion-preview", 0.5, everyone, fixed("/api/account/deletion-preview")),
  getRoute("GET /api/account/storage", 0.5, everyone, fixed("/api/account/storage")),
  jsonRoute("DELETE /api/account", 1, everyone, () => ({ currentPassword: { text: goodOrTainted(fc.constantFrom("wrong-pass", "")) } })),
  getRoute("GET /api/books", 10, everyone, fixed("/api/books"), () => ({
    limit: fc.constantFrom("1", "20", "100", "101", "0", "-1", "1.5"),
    offset: fc.constantFrom("0", "5", "999999999", "-1"),
    genre: genres,
    tag: goodOrTainted(fc.constantFrom("science-fiction", "Science Fiction", "", "-", "x".repeat(41))),
    search: goodOrTainted(words),
    sort: fc.constantFrom("newest", "downloads", "rating", "title", "random"),
  })),
  {
    name: "POST /api/books",
    weight: 12,
    personas: everyone,
    requests: (targets) => hostileMultipart(targets.samples, bookFormFields()).map((body) => sending("POST", "/api/books", body)),
  },
  getRoute("GET /api/books/:id", 5, everyone, withId("/api/books/", "", bookIdText)),
  {
    name: "PUT /api/books/:id",
    weight: 10,
    personas: everyone,
    requests: (targets) =>
      fc.tuple(bookIdText(targets), hostileMultipart(targets.samples, bookFormFields())).map(([id, body]) => sending("PUT", `/api/books/${onTheWire(id)}`, body)),
  },
  {
    name: "POST /api/books/:id/editions",
    weight: 6,
    personas: everyone,
    requests: (targets) =>
      fc
        .tuple(bookIdText(targets), hostileMultipart(targets.samples, { changelog: goodOrTainted(words) }))
        .map(([id, body]) => sending("POST", `/api/books/${onTheWire(id)}/editions`, body)),
  },
  getRoute("GET /api/books/:id/editions", 2, everyone, withId("/api/books/", "/editions", bookIdText)),
  {
    name: "POST /api/books/:id/download",
    weight: 5,
    personas: everyone,
    requests: (targets) =>
      withHeaders(fc.tuple(bookIdText(targets), anyBody({}, targets.samples)).map(([id, body]) => sending("POST", `/api/books/${onTheWire(id)}/download`, body))),
  },
  {
    name: "POST /api/books/:id/send-to-e-reader",
    weight: 2,
    personas: everyone,
    requests: (targets) =>
      withHeaders(fc.tuple(bookIdText(targets), anyBody({}, targets.samples)).map(([id, body]) => sending("POST", `/api/books/${onTheWire(id)}/send-to-e-reader`, body))),
  },
  {
    name: "POST /api/books/:id/read",
    weight: 4,
    personas: everyone,
    requests: (targets) =>
      withHeaders(fc.tuple(bookIdText(targets), anyBody({}, targets.samples)).map(([id, body]) => sending("POST", `/api/books/${onTheWire(id)}/read`, body))),
  },
  {
    // pdf.js asks for ranges: broken, reversed, past the end, several at once, another unit.
    name: "GET /api/books/:id/read/file",
    weight: 4,
    personas: everyone,
    requests: (targets) =>
      fc
        .tuple(bookIdText(targets), fc.option(byteRanges, { nil: undefined }), hostileHeaders)
        .map(([id, range, extra]) => ({ method: "GET", path: `/api/books/${onTheWire(id)}/read/file`, headers: { ...extra, ...(range ? { Range: range } : {}) } })),
  },
  getRoute("GET /api/books/:id/read/view", 2, everyone, withId("/api/books/", "/read/view", bookIdText)),
  getRoute("GET /api/books/:id/read/epub", 2, everyone, withId("/api/books/", "/read/epub", bookIdText)),
  {
    name: "PUT /api/books/:id/read/position",
    weight: 4,
    personas: everyone,
    requests: (targets) =>
      withHeaders(
        fc
          .tuple(
            bookIdText(targets),
            anyBody(
              {
                page: { json: fc.constantFrom("1", "2", "0", "-1", "1.5", "100000", "100001", "1e308", "9007199254740993") },
                percentage: { json: fc.constantFrom("0", "0.5", "1", "1.0001", "-0", "-1", "1e-400") },
                locator: { text: fc.constantFrom("epubcfi(/6/4!/4/2/1:0)", "/body/DocFragment[3]", "", "x".repeat(1025)) },
                format: { text: fc.constantFrom("pdf", "epub", "word", "mobi", "") },
              },
              targets.samples,
            ),
          )
          .map(([id, body]) => sending("PUT", `/api/books/${onTheWire(id)}/read/position`, body)),
      ),
  },
  getRoute("GET /api/authors/:id", 3, everyone, withId("/api/authors/", "", userIdText)),
  getRoute("GET /api/authors/:id/books", 3, everyone, withId("/api/authors/", "/books", userIdText)),
  getRoute("GET /api/authors/:id/stats", 3, everyone, withId("/api/authors/", "/stats", userIdText)),
  getRoute("GET /api/authors/:id/payments", 3, withAdmin, withId("/api/authors/", "/payments", userIdText)),
  getRoute("GET /api/authors/:id/download-report", 3, withAdmin, withId("/api/authors/", "/download-report", userIdText), () => ({
    months: fc.constantFrom("1", "12", "24", "25", "0", "-1", "1.5", "1e2", "", "twelve"),
  })),
  jsonRoute("POST /api/wallet/nonce", 4, everyone, () => ({ walletAddress: { text: walletAddresses } })),
  jsonRoute("POST /api/wallet/connect", 5, everyone, () => ({ message: { text: walletProofMessages }, signature: { text: signatures } })),
  getRoute("GET /api/stats/public", 1, everyone, fixed("/api/stats/public")),
  getRoute("GET /api/config", 1, everyone, fixed("/api/config")),
  getRoute("GET /api/admin/overview-debug", 1, withAdmin, fixed("/api/admin/overview-debug")),
  getRoute("GET /api/admin/payment-diagnostics", 1, withAdmin, fixed("/api/admin/payment-diagnostics")),
  getRoute("GET /api/admin/users", 1, withAdmin, fixed("/api/admin/users"), () => ({ q: goodOrTainted(words), page: opdsPaging.page })),
  getRoute("GET /api/admin/books", 1, withAdmin, fixed("/api/admin/books"), () => ({ q: goodOrTainted(words), show: fc.constantFrom("attention", "all", "ALL", ""), page: opdsPaging.page })),
  getRoute("GET /api/admin/payout-sla", 1, withAdmin, fixed("/api/admin/payout-sla")),
  getRoute("POST /api/admin/users/:id/reset-link", 2, withAdmin, withId("/api/admin/users/", "/reset-link", userIdText)),
  jsonRoute("POST /api/admin/fix-first-book-flag", 4, withAdmin, (targets) => ({
    bookId: { json: bookIdJson(targets) },
    setAsFirstBook: { json: fc.constantFrom("true", "false") },
  })),
  jsonRoute("POST /api/notices", 5, everyone, (targets) => ({
    category: { text: fc.constantFrom("copyright", "illegal", "private-data", "hate-violence", "minors", "spam", "harmful-file", "other", "") },
    bookId: { json: bookIdJson(targets) },
    url: { text: fc.constantFrom("https://plume.test/books/1", "http://plume.test/", "javascript:alert(1)", "ftp://x", "not a url", `https://x.test/${"a".repeat(3000)}`) },
    explanation: { text: goodOrTainted(fc.constantFrom("This book copies my novel word for word, chapter after chapter.", "short")) },
    name: { text: goodOrTainted(words) },
    email: { text: fc.constantFrom("ana@example.test", "not-an-email", "", `${"a".repeat(300)}@example.test`) },
    goodFaith: { json: fc.constantFrom("true", "false") },
    originalWork: { text: goodOrTainted(words) },
    rightsHolder: { text: goodOrTainted(words) },
    sworn: { json: fc.constantFrom("true", "false") },
  })),
  jsonRouteAt("POST /api/admin/books/:id/moderation", 3, withAdmin, withId("/api/admin/books/", "/moderation", bookIdText), () => ({
    action: { text: fc.constantFrom("hide", "remove", "restore", "suspend", "") },
    ground: { text: fc.constantFrom("terms-spam", "law-copyright", "law-made-up", "") },
    basis: { text: fc.constantFrom("notice", "automated", "own-initiative", "rumour") },
    facts: { text: goodOrTainted(fc.constantFrom("The book repeats one advertisement on every page.", "x")) },
  })),
  // Never a persona's own account: a suspended persona could not sign in again for the next cases.
  jsonRouteAt("POST /api/admin/users/:id/moderation", 3, withAdmin, withId("/api/admin/users/", "/moderation", () => fc.oneof(fc.uuid(), hostileIdText)), () => ({
    action: { text: fc.constantFrom("suspend", "reinstate", "hide", "") },
    ground: { text: fc.constantFrom("terms-spam", "law-copyright", "") },
    basis: { text: fc.constantFrom("notice", "own-initiative", "rumour") },
    facts: { text: goodOrTainted(fc.constantFrom("Three upheld copyright notices against this account.", "x")) },
  })),
  getRoute("GET /api/moderation/decisions", 1, everyone, fixed("/api/moderation/decisions")),
  getRoute("GET /api/admin/notices", 1, withAdmin, fixed("/api/admin/notices")),
  jsonRouteAt("POST /api/admin/notices/:id/dismiss", 2, withAdmin, withId("/api/admin/notices/", "/dismiss", () => fc.oneof(fc.constantFrom("1", "2", "999999"), hostileIdText)), () => ({
    facts: { text: goodOrTainted(fc.constantFrom("The book is the author's own work.", "x")) },
  })),
  jsonRouteAt("POST /api/moderation/decisions/:id/appeal", 2, everyone, withId("/api/moderation/decisions/", "/appeal", () => fc.oneof(fc.constantFrom("1", "2", "999999"), hostileIdText)), () => ({
    kind: { text: fc.constantFrom("appeal", "counter-notice", "complaint", "") },
    statement: { text: goodOrTainted(fc.constantFrom("I wrote this book myself, in 2019, and hold every right to it.", "x")) },
    legalName: { text: goodOrTainted(words) },
    postalAddress: { text: goodOrTainted(fc.constantFrom("Calle Mayor 1, 28013 Madrid", "")) },
    phone: { text: fc.constantFrom("+34 600 000 000", "call me", "") },
    swornMistake: { json: fc.constantFrom("true", "false") },
    consentJurisdiction: { json: fc.constantFrom("true", "false") },
  })),
  getRoute("GET /api/admin/appeals", 1, withAdmin, fixed("/api/admin/appeals")),
  getRoute("GET /api/admin/moderation/decisions", 1, withAdmin, fixed("/api/admin/moderation/decisions"), () => ({
    page: fc.constantFrom("1", "2", "0", "-1", "501", "abc", "1e3", ""),
  })),
  getRoute("GET /api/transparency", 1, everyone, fixed("/api/transparency")),
  jsonRouteAt("POST /api/admin/appeals/:id/decision", 2, withAdmin, withId("/api/admin/appeals/", "/decision", () => fc.oneof(fc.constantFrom("1", "2", "999999"), hostileIdText)), () => ({
    outcome: { text: fc.constantFrom("granted", "rejected", "maybe", "") },
    facts: { text: goodOrTainted(fc.constantFrom("The author showed a publishing contract.", "x")) },
  })),
  getRoute("GET /api/login", 2, everyone, fixed("/api/login"), () => ({
    next: fc.constantFrom("/dashboard", "//evil.test", "/\\evil.test", "https://evil.test", "javascript:alert(1)", "/%0d%0aSet-Cookie:x=1", "/ok?a=1#b"),
  })),
  getRoute("GET /rating/:bookId", 4, everyone, withId("/rating/", "", bookIdText)),
  jsonRoute("POST /rate", 6, everyone, (targets) => ({
    bookId: { json: bookIdJson(targets) },
    userId: { text: fc.constantFrom(...targets.userIds) },
    rating: { json: fc.constantFrom("1", "2", "3", "4", "5") },
  })),
  getRoute("GET /api/shelves", 1, everyone, fixed("/api/shelves")),
  jsonRouteAt("PUT /api/shelves/:bookId", 4, everyone, withId("/api/shelves/", "", bookIdText), () => ({
    shelf: { text: fc.oneof({ arbitrary: fc.constantFrom("want", "reading", "read"), weight: 3 }, fc.constantFrom("READ", "wanted", "", "favourites")) },
  })),
  getRoute("DELETE /api/shelves/:bookId", 2, everyone, withId("/api/shelves/", "", bookIdText)),
  getRoute("GET /api/my-books/shelves/:shelf", 2, everyone, withId("/api/my-books/shelves/", "", () => fc.oneof(fc.constantFrom("want", "reading", "read", "Read"), hostileIdText)), () => ({
    page: fc.oneof(fc.constantFrom("1", "2", "401", "0", "-1", "1.5"), hostileIdText),
  })),
  getRoute("GET /api/my-books/taken", 2, everyone, fixed("/api/my-books/taken"), () => ({ page: fc.oneof(fc.constantFrom("1", "2", "0", "1e3"), hostileIdText) })),
  getRoute("GET /api/my-books/continue-reading", 2, everyone, fixed("/api/my-books/continue-reading"), (targets) => ({ bookId: bookIdText(targets) })),
  getRoute("GET /api/readers/:username", 2, everyone, withId("/api/readers/", "", () => fc.oneof(usernames, hostileIdText))),
  jsonRoute("PUT /api/account/shelves-public", 1, everyone, () => ({ shelvesPublic: { json: fc.constantFrom("true", "false", "1", "\"on\"", "null", "[]") } })),
  getRoute("GET /api/reviews", 4, withAdmin, fixed("/api/reviews"), (targets) => ({ bookId: bookIdText(targets), userId: userIdText(targets) })),
  // Reviews (docs/product.md#reviews): the ids are the shared books' and small numbers, most of them hostile.
  getRoute("GET /api/books/:id/reviews", 3, everyone, withId("/api/books/", "/reviews", bookIdText), () => ({
    sort: fc.constantFrom("newest", "helpful", "oldest", ""),
    page: fc.constantFrom("1", "2", "0", "-1", "501", "abc", "1e3", ""),
  })),
  jsonRouteAt("PUT /api/books/:id/rating", 2, everyone, withId("/api/books/", "/rating", bookIdText), () => ({ rating: { json: fc.constantFrom("1", "5", "0", "6", "2.5", '"3"') } })),
  getRoute("DELETE /api/books/:id/rating", 2, everyone, withId("/api/books/", "/rating", bookIdText)),
  jsonRouteAt("PUT /api/books/:id/review", 3, everyone, withId("/api/books/", "/review", bookIdText), () => ({
    rating: { json: fc.constantFrom("1", "5", "0", "6", "2.5", '"3"') },
    text: { text: goodOrTainted(fc.constantFrom("A patient book whose second half earns every page.", "short")) },
  })),
  getRoute("DELETE /api/books/:id/review", 2, everyone, withId("/api/books/", "/review", bookIdText)),
  ...(["PUT", "DELETE"] as const).flatMap((method) => [
    jsonRouteAt(`${method} /api/reviews/:id/reply`, 2, everyone, withId("/api/reviews/", "/reply", reviewIdText), () => ({ text: { text: goodOrTainted(words) } })),
    jsonRouteAt(`${method} /api/reviews/:id/helpful`, 2, everyone, withId("/api/reviews/", "/helpful", reviewIdText), () => ({})),
  ]),
  jsonRouteAt("POST /api/admin/reviews/:id/moderation", 3, withAdmin, withId("/api/admin/reviews/", "/moderation", reviewIdText), () => ({
    action: { text: fc.constantFrom("remove", "restore", "hide", "remove-review", "") },
    ground: { text: fc.constantFrom("terms-spam", "law-copyright", "law-made-up", "") },
    basis: { text: fc.constantFrom("notice", "own-initiative", "appeal", "rumour") },
    facts: { text: goodOrTainted(fc.constantFrom("The review repeats one advertisement.", "x")) },
  })),
  getRoute("GET /covers/:name", 3, everyone, () =>
    fc.oneof(hostileText, hostileIdText, fc.constantFrom("x.webp", "../../etc/passwd", "..%2F..%2Fpackage.json", "%2e%2e%2fx.png", `${"0".repeat(36)}-600.webp`, "a.webp%00.png")).map((name) => `/covers/${onTheWire(name)}`),
  ),
  getRoute("GET /api/account/series", 1, everyone, fixed("/api/account/series")),
  jsonRoute("POST /api/series", 2, everyone, () => ({ title: { text: goodOrTainted(words) }, description: { text: goodOrTainted(words) } })),
  jsonRouteAt("PUT /api/series/:id", 2, everyone, () => seriesIdText().map((id) => `/api/series/${onTheWire(id)}`), () => ({ title: { text: goodOrTainted(words) }, description: { text: goodOrTainted(words) } })),
  getRoute("GET /api/series/:id", 2, everyone, withId("/api/series/", "", seriesIdText)),
  getRoute("GET /api/books/:id/placement", 2, everyone, withId("/api/books/", "/placement", bookIdText)),
  getRoute("GET /api/tags", 2, everyone, fixed("/api/tags"), () => ({ q: goodOrTainted(words) })),
  getRoute("GET /api/tags/:slug", 2, everyone, withId("/api/tags/", "", () => fc.oneof(words, hostileIdText))),
  getRoute("GET /opds/series/:id", 1, everyone, withId("/opds/series/", "", seriesIdText), () => opdsPaging),
  getRoute("GET /opds/tags", 1, everyone, fixed("/opds/tags")),
  getRoute("GET /opds/tags/:slug", 1, everyone, withId("/opds/tags/", "", () => fc.oneof(words, hostileIdText)), () => opdsPaging),
  getRoute("GET /api/e-reader-keys", 1, everyone, fixed("/api/e-reader-keys")),
  jsonRoute("POST /api/e-reader-keys", 3, everyone, () => ({ name: { text: goodOrTainted(words) } })),
  getRoute("GET /opds", 1, everyone, fixed("/opds")),
  getRoute("GET /opds/genres", 1, everyone, fixed("/opds/genres")),
  getRoute("GET /opds/languages", 1, everyone, fixed("/opds/languages")),
  getRoute("GET /opds/opensearch.xml", 1, everyone, fixed("/opds/opensearch.xml")),
  ...(["new", "popular"] as const).map((feed) => getRoute(`GET /opds/${feed}`, 2, everyone, fixed(`/opds/${feed}`), () => opdsPaging)),
  getRoute("GET /opds/genres/:genre", 2, everyone, withId("/opds/genres/", "", () => fc.oneof(genres, hostileIdText)), () => opdsPaging),
  getRoute("GET /opds/languages/:language", 2, everyone, withId("/opds/languages/", "", () => fc.oneof(languages, hostileIdText)), () => opdsPaging),
  getRoute("GET /opds/search", 3, everyone, fixed("/opds/search"), () => ({ ...opdsPaging, q: goodOrTainted(words) })),
  {
    // E-reader apps send HTTP Basic, not the session: the fuzzer sends broken, foreign and guessed credentials.
    name: "GET /opds/books/:id/file",
    weight: 4,
    personas: everyone,
    requests: (targets) =>
      fc
        .tuple(bookIdText(targets), basicCredentials(targets), hostileHeaders)
        .map(([id, authorization, extra]) => ({ method: "GET", path: `/opds/books/${onTheWire(id)}/file`, headers: { ...extra, ...(authorization ? { Authorization: authorization } : {}) } })),
  },
  ...(["/opds/following", "/opds/following/atom"] as const).map((path) => ({
    // The reader's own feeds: HTTP Basic with an e-reader key, like a book's file.
    name: `GET ${path}`,
    weight: 1,
    personas: everyone,
    requests: (targets: FuzzTargets) =>
      fc.tuple(basicCredentials(targets), hostileHeaders).map(([authorization, extra]) => ({ method: "GET", path, headers: { ...extra, ...(authorization ? { Authorization: authorization } : {}) } })),
  })),
  {
    // KOReader signs in with headers of its own, never the session.
    name: "GET /kosync/users/auth",
    weight: 2,
    personas: everyone,
    requests: (targets) => withHeaders(koreaderSignIn(targets).map((headers) => ({ method: "GET", path: "/kosync/users/auth", headers }))),
  },
  {
    name: "PUT /kosync/syncs/progress",
    weight: 4,
    personas: everyone,
    requests: (targets) =>
      withHeaders(
        fc
          .tuple(
            koreaderSignIn(targets),
            anyBody(
              {
                document: { text: koreaderDocuments(targets) },
                progress: { text: fc.constantFrom("1", "3", "0", "/body/DocFragment[2]/body/p[4]/text().7", "/body/DocFragment[99999999999]", "x".repeat(1025)) },
                percentage: { json: fc.constantFrom("0", "0.25", "1", "1.5", "-0.1") },
                device: { text: fc.constantFrom("Kobo Libra 2", "PocketBook", "x".repeat(101)) },
                device_id: { text: fc.constantFrom("8A5F-KOBO", "") },
              },
              targets.samples,
            ),
          )
          .map(([signIn, body]) => {
            const request = sending("PUT", "/kosync/syncs/progress", body);
            return { ...request, headers: { ...request.headers, ...signIn } };
          }),
      ),
  },
  {
    name: "GET /kosync/syncs/progress/:document",
    weight: 3,
    personas: everyone,
    requests: (targets) =>
      withHeaders(
        fc.tuple(koreaderSignIn(targets), koreaderDocuments(targets)).map(([headers, document]) => ({ method: "GET", path: `/kosync/syncs/progress/${onTheWire(document)}`, headers })),
      ),
  },
  getRoute("GET /feed.xml", 1, everyone, fixed("/feed.xml")),
  getRoute("GET /authors/:id/feed.xml", 2, everyone, withId("/authors/", "/feed.xml", userIdText)),
  getRoute("GET /sitemap.xml", 1, everyone, fixed("/sitemap.xml")),
  getRoute("GET /sitemaps/:name", 2, everyone, () =>
    fc
      .oneof(fc.constantFrom("pages.xml", "books-1.xml", "books-0.xml", "books-01.xml", `books-${"9".repeat(30)}.xml`, "authors-1.xml", "authors-2.xml", "books-1.xml.gz", "x.xml"), hostileIdText)
      .map((name) => `/sitemaps/${onTheWire(name)}`),
  ),
  getRoute("GET /robots.txt", 1, everyone, fixed("/robots.txt")),
  getRoute("GET /api/openapi.json", 1, everyone, fixed("/api/openapi.json")),
  getRoute("GET /healthz", 1, everyone, fixed("/healthz")),
  getRoute("GET /readyz", 1, everyone, fixed("/readyz")),
  // The fuzzed app has a METRICS_TOKEN (server/fuzz.api.test.ts): near misses of it meet the bearer check.
  {
    name: "GET /metrics",
    weight: 1,
    personas: everyone,
    requests: () =>
      withHeaders(
        fc
          .constantFrom("", "Bearer", "Bearer ", "bearer fuzz-metrics-token-0123456", "Bearer fuzz-metrics-token-012345", "Bearer fuzz-metrics-token-0123456 ", `Bearer ${"a".repeat(4000)}`, "Basic Zm9vOmJhcg==")
          .map((authorization): RawRequest => ({ method: "GET", path: "/metrics", headers: authorization ? { Authorization: authorization } : {} })),
      ),
  },
  // Last: a case may delete the reader's book, which the other routes aim at.
  {
    name: "DELETE /api/books/:id",
    weight: 4,
    personas: everyone,
    requests: (targets) => withHeaders(fc.tuple(bookIdText(targets), hostileQuery({})).map(([id, query]) => ({ method: "DELETE", path: `/api/books/${onTheWire(id)}${query}` }))),
  },
  getRoute("DELETE /api/e-reader-keys/:id", 2, everyone, withId("/api/e-reader-keys/", "", () => fc.oneof(fc.uuid(), hostileIdText))),
  getRoute("DELETE /api/series/:id", 1, everyone, withId("/api/series/", "", seriesIdText)),
];

/**
 * How many inputs each route gets so that the requests (an input is sent once per persona) add up to
 * at least `totalCases`, shared by weight.
 */
export function inputsPerRoute(totalCases: number): Map<FuzzRoute, number> {
  const weights = FUZZ_ROUTES.reduce((sum, route) => sum + route.weight, 0);
  return new Map(FUZZ_ROUTES.map((route) => [route, Math.max(5, Math.ceil((totalCases * route.weight) / weights / route.personas.length))]));
}
