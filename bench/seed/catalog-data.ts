import { BOOK_LANGUAGES, type BookFileType, type BookLanguage, type ContentRating } from "../../shared/books.ts";
import { GENRE_KEYS } from "../../shared/genres.ts";
import { DEFAULT_PROMO_CUTOFF, FIRST_BOOK_BONUS_DOWNLOADS, MILESTONE_STEP, firstBookBonusKey, milestoneKey } from "../../shared/rewards.ts";
import type { Book, NotCountedReason, Payment, User, bookEditions, downloads } from "../../server/db/schema.ts";
import { SeededRandom } from "../../test/reliability/seeded-random.ts";
import { WeightedPicker, seededUuid, zipfWeights } from "./distributions.ts";
import { type Adjective, type LanguageWords, type Noun, WORDS } from "./words.ts";

/**
 * The benchmark catalog, made from a seed alone: the same seed and sizes give the same rows on
 * every machine. The rows follow the app's own rules, as if they had been written through it:
 * a reader counts once per book and never on their own book, at most COUNTED_PER_IP counted per
 * address, book and day; books.downloadCount and the author's totalDownloads sum the counted
 * rows; every milestone and first-book bonus reached has its (completed) payment, and the
 * author's totalEarnings sums them.
 */

export interface SeedSizes {
  books: number;
  users: number;
  downloads: number;
  seed: number;
}

export type DownloadRow = typeof downloads.$inferSelect;
export type EditionRow = typeof bookEditions.$inferSelect;

export interface SeedCatalog {
  users: User[];
  books: Book[];
  /** Every book's editions (docs/product.md#editions), its first included. */
  editions: EditionRow[];
  payments: Payment[];
  downloadTotal: number;
  /** The download log in time order, made on the fly (a million objects need not live at once). */
  downloadRows(): Iterable<DownloadRow>;
}

/** The catalog's three years end on a fixed day, never "now": a seed must give the same dates tomorrow. */
export const CATALOG_END = Date.parse("2026-11-01T00:00:00Z");
const DAY_MS = 24 * 60 * 60 * 1000;
const CATALOG_START = CATALOG_END - 3 * 365 * DAY_MS;
/** The server's defaults (server/config.ts), which the benchmark server runs with. */
const COUNTED_PER_IP_PER_BOOK_PER_DAY = 3;
const PAYOUT_HOLD_MS = DAY_MS;
const TOKENS_PER_PAYMENT = "1.00";
const WEI_PER_PAYMENT = (10n ** 18n).toString();

const AUTHOR_SHARE = 0.25;
const DELETED_SHARE = 0.01;
/** Books whose author published a second edition, and of those, a third too. */
const REVISED_SHARE = 0.1;
const THIRD_EDITION_SHARE = 0.3;
/** Readers behind one shared address (a campus, an office) download this share of the time. */
const SHARED_ADDRESS_SHARE = 0.1;
const SHARED_ADDRESSES = 200;
const LANGUAGE_WEIGHTS: Record<BookLanguage, number> = { en: 0.4, es: 0.35, fr: 0.25 };
const FILE_TYPES: Array<{ type: BookFileType; mime: string; weight: number }> = [
  { type: "pdf", mime: "application/pdf", weight: 0.8 },
  { type: "docx", mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", weight: 0.15 },
  { type: "doc", mime: "application/msword", weight: 0.05 },
];

function weightedIndex(random: SeededRandom, weights: number[]): number {
  let target = random.next() * weights.reduce((sum, weight) => sum + weight, 0);
  for (const [index, weight] of weights.entries()) {
    target -= weight;
    if (target < 0) return index;
  }
  return weights.length - 1;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const startsWithVowelSound = (word: string) => /^[aeiouhâàéèêëîïôûœ]/i.test(word);
const asciiFold = (text: string) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/œ/g, "oe");

function withArticle(language: BookLanguage, words: LanguageWords, noun: Noun, definite: boolean): string {
  if (definite && language === "fr" && startsWithVowelSound(noun.word)) return `l'${noun.word}`;
  if (!definite && language === "en" && /^[aeiou]/i.test(noun.word)) return `an ${noun.word}`;
  return `${(definite ? words.definite : words.indefinite)[noun.gender]} ${noun.word}`;
}

/** Fills a title or sentence shape with words of one language, adjectives agreeing with the noun. */
function fillShape(shape: string, language: BookLanguage, random: SeededRandom): string {
  const words = WORDS[language];
  const noun = random.pick(words.nouns);
  const otherNoun = random.pick(words.nouns);
  const adjective: Adjective = random.pick(words.adjectives);
  const fillers: Record<string, () => string> = {
    noun: () => noun.word,
    noun2: () => otherNoun.word,
    theNoun: () => withArticle(language, words, noun, true),
    TheNoun: () => capitalize(withArticle(language, words, noun, true)),
    aNoun: () => withArticle(language, words, noun, false),
    ANoun: () => capitalize(withArticle(language, words, noun, false)),
    theNoun2: () => withArticle(language, words, otherNoun, true),
    adjective: () => adjective[noun.gender],
    place: () => random.pick(words.places),
    verb: () => random.pick(words.verbs),
  };
  return shape.replace(/\{(\w+)\}/g, (_, token: string) => {
    const filler = fillers[token];
    if (!filler) throw new Error(`Unknown word slot {${token}} in "${shape}"`);
    return filler();
  });
}

function makeUsers(sizes: SeedSizes, random: SeededRandom, passwordHash: string): User[] {
  const authorCount = Math.max(1, Math.round(sizes.users * AUTHOR_SHARE));
  return Array.from({ length: sizes.users }, (_, index) => {
    const words = WORDS[random.pick(BOOK_LANGUAGES)];
    const firstName = random.pick(words.firstNames);
    const lastName = random.pick(words.lastNames);
    const username = `${asciiFold(`${firstName}.${lastName}`).toLowerCase().replace(/[^a-z.]/g, "")}.${index + 1}`;
    const createdAt = new Date(random.int(CATALOG_START - 180 * DAY_MS, CATALOG_START));
    return {
      id: seededUuid(random),
      username,
      email: `${username}@example.test`,
      password: passwordHash,
      firstName,
      lastName,
      profileImageUrl: null,
      // Authors (the first quarter) have a wallet: their milestones were paid into it.
      walletAddress: index < authorCount ? `0x${random.hex(20)}` : null,
      totalDownloads: 0,
      totalEarnings: "0.00",
      lastSignInAt: null,
      emailVerifiedAt: null,
      language: "en",
      notifyPaymentCompleted: true,
      eReaderEmail: null,
      // One reader in five chose to see explicit books; by position, so the seeded draws stay as they were.
      showExplicit: index % 5 === 0,
      suspendedAt: null,
      digestFrequency: "weekly" as const,
      digestSentThrough: null,
      shelvesPublic: false,
      createdAt,
      updatedAt: createdAt,
      deletedAt: null,
    };
  });
}

/**
 * A book's content rating by its position: one book in twenty explicit, one in twenty mature, one in
 * ten teen (docs/decisions/0092). Not drawn, so the seeded draws of every other column stay as they were.
 */
function contentRatingAt(index: number): ContentRating {
  if (index % 20 === 7) return "explicit";
  if (index % 20 === 13) return "mature";
  return index % 10 === 3 ? "teen" : "general";
}

function makeBooks(sizes: SeedSizes, random: SeededRandom, authors: User[]): Book[] {
  const authorPicker = new WeightedPicker(zipfWeights(authors.length, 1.1, random));
  const languageWeights = BOOK_LANGUAGES.map((language) => LANGUAGE_WEIGHTS[language]);
  const span = CATALOG_END - CATALOG_START;
  const authorsWithABook = new Set<string>();
  return Array.from({ length: sizes.books }, (_, index) => {
    const language = BOOK_LANGUAGES[weightedIndex(random, languageWeights)]!;
    const words = WORDS[language];
    const title = fillShape(random.pick(words.titleShapes), language, random);
    const sentences = random.shuffle(words.sentenceShapes).slice(0, random.int(2, 4)).map((shape) => fillShape(shape, language, random));
    const file = FILE_TYPES[weightedIndex(random, FILE_TYPES.map((entry) => entry.weight))]!;
    const author = authors[authorPicker.pick(random)]!;
    // Books arrive in id order, a little jittered, as uploads do.
    const createdAt = new Date(Math.floor(CATALOG_START + ((index + random.next()) / sizes.books) * span));
    const deletedAt = random.chance(DELETED_SHARE) ? new Date(random.int(createdAt.getTime(), CATALOG_END)) : null;
    const firstBook = !authorsWithABook.has(author.id);
    authorsWithABook.add(author.id);
    return {
      id: index + 1,
      title,
      description: sentences.join(" "),
      genre: random.pick(GENRE_KEYS),
      language,
      contentRating: contentRatingAt(index),
      authorId: author.id,
      fileName: `${asciiFold(title).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}.${file.type}`,
      filePath: `${seededUuid(random)}.${file.type}`,
      fileSize: Math.floor(50_000 * 300 ** random.next()),
      mimeType: file.mime,
      // The seed's files are generated per book, not uploaded: no copy check ever reads them.
      fileSha256: null,
      pageCount: null,
      coverImageUrl: null,
      epubSize: null,
      epubTitle: null,
      epubLanguage: null,
      epubCoverUrl: null,
      epubFailedVersion: null,
      coverSource: null,
      downloadCount: 0,
      rating: "0.00",
      reviewCount: 0,
      isPublished: true,
      firstBook,
      firstBookBonusPaid: false,
      paidMilestones: 0,
      firstDownloadDate: null,
      seriesId: null,
      seriesVolume: null,
      edition: 1,
      moderationState: null,
      moderationDecisionId: null,
      createdAt,
      updatedAt: createdAt,
      deletedAt,
    };
  });
}

/**
 * Every book's editions as its upload and its new editions wrote them: edition 1, and for a share of the books
 * one or two newer ones between the upload and the catalog's end (or the book's deletion), in the same
 * format. The book row is its newest edition's, as a new edition leaves it: file, number, updatedAt.
 * Returns the editions and, by book index, when each began.
 */
function makeEditions(books: Book[], random: SeededRandom): { editions: EditionRow[]; startsOf: Map<number, number[]> } {
  const editions: EditionRow[] = [];
  const startsOf = new Map<number, number[]>();
  for (const [index, book] of books.entries()) {
    const count = random.chance(REVISED_SHARE) ? (random.chance(THIRD_EDITION_SHARE) ? 3 : 2) : 1;
    const end = (book.deletedAt ?? new Date(CATALOG_END)).getTime();
    const later = Array.from({ length: count - 1 }, () => random.int(book.createdAt.getTime(), end)).sort((a, b) => a - b);
    const starts = [book.createdAt.getTime(), ...later];
    if (count > 1) startsOf.set(index, starts);
    const extension = book.filePath.slice(book.filePath.lastIndexOf("."));
    for (const [position, start] of starts.entries()) {
      const newest = position === count - 1;
      editions.push({
        id: editions.length + 1,
        bookId: book.id,
        number: position + 1,
        fileName: book.fileName,
        filePath: newest ? book.filePath : `${seededUuid(random)}${extension}`,
        fileSize: newest ? book.fileSize : Math.floor(50_000 * 300 ** random.next()),
        fileSha256: null,
        mimeType: book.mimeType,
        changelog: position === 0 ? null : "Typos fixed and a chapter revised.",
        pageCount: null,
        createdAt: new Date(start),
      });
    }
    book.edition = count;
    book.updatedAt = new Date(starts.at(-1)!);
  }
  return { editions, startsOf };
}

/** The edition current at `at`: the newest begun by then. */
function editionAt(starts: number[] | undefined, at: number): number {
  if (!starts) return 1;
  let edition = 1;
  for (const [position, start] of starts.entries()) if (start <= at) edition = position + 1;
  return edition;
}

/** The download log as columns (a million rows), in time order once `order` is sorted. */
interface DownloadLog {
  book: Int32Array;
  user: Int32Array;
  /** < users: the reader's own address; otherwise one of the shared ones. */
  address: Int32Array;
  at: Float64Array;
  /** What the counting rule made of it (OUTCOME), 0 until decided. */
  outcome: Uint8Array;
  order: Uint32Array;
}

function drawDownloads(sizes: SeedSizes, random: SeededRandom, books: Book[]): DownloadLog {
  const bookPicker = new WeightedPicker(zipfWeights(books.length, 0.9, random));
  const readerPicker = new WeightedPicker(zipfWeights(sizes.users, 0.5, random));
  const count = sizes.downloads;
  const log: DownloadLog = {
    book: new Int32Array(count),
    user: new Int32Array(count),
    address: new Int32Array(count),
    at: new Float64Array(count),
    outcome: new Uint8Array(count),
    order: new Uint32Array(count),
  };
  for (let index = 0; index < count; index += 1) {
    const bookIndex = bookPicker.pick(random);
    const book = books[bookIndex]!;
    const userIndex = readerPicker.pick(random);
    log.book[index] = bookIndex;
    log.user[index] = userIndex;
    log.address[index] = random.chance(SHARED_ADDRESS_SHARE) ? sizes.users + random.int(0, SHARED_ADDRESSES - 1) : userIndex;
    log.at[index] = random.int(book.createdAt.getTime(), (book.deletedAt ?? new Date(CATALOG_END)).getTime());
    log.order[index] = index;
  }
  log.order.sort((a, b) => log.at[a]! - log.at[b]! || a - b);
  return log;
}

const addressText = (code: number, users: number) =>
  code < users ? `10.${(code >> 16) & 255}.${(code >> 8) & 255}.${code & 255}` : `192.0.2.${(code - users) % 256}`;

/**
 * Decides which downloads count, in time order, by the rules of server/downloads/downloads-service.ts,
 * and writes what counting leaves behind: counts, first download dates, payments and earnings.
 */
function countDownloads(sizes: SeedSizes, random: SeededRandom, log: DownloadLog, users: User[], books: Book[]): Payment[] {
  const userIndexById = new Map(users.map((user, index) => [user.id, index]));
  const authorIndexOfBook = Int32Array.from(books, (book) => userIndexById.get(book.authorId)!);
  const downloadedBefore = new Set<number>();
  const countedAtAddress = new Map<number, number[]>();
  const payments: Payment[] = [];
  const addressSpace = sizes.users + SHARED_ADDRESSES;

  const pay = (book: Book, at: number, reward: { kind: Payment["kind"]; key: string; threshold: number; milestone: number | null }) => {
    const author = users[authorIndexOfBook[book.id - 1]!]!;
    const sentAt = at + PAYOUT_HOLD_MS;
    const hash = `0x${random.hex(32)}`;
    payments.push({
      id: payments.length + 1,
      bookId: book.id,
      authorId: author.id,
      authorWallet: author.walletAddress,
      tokensSent: WEI_PER_PAYMENT,
      transactionHash: hash,
      paidAt: new Date(sentAt + 60_000),
      idempotencyKey: reward.key,
      metadata: { countedDownloads: reward.threshold },
      amount: TOKENS_PER_PAYMENT,
      currency: "PME",
      walletAddress: author.walletAddress,
      status: "completed",
      downloadThreshold: reward.threshold,
      triggeredAt: new Date(at),
      completedAt: new Date(sentAt + 60_000),
      kind: reward.kind,
      milestone: reward.milestone,
      payoutStage: "confirming",
      nonce: payments.length,
      payoutTransactionId: null,
      logIndex: 0,
      attempts: 1,
      sentAt: new Date(sentAt),
      lastError: null,
      nextAttemptAt: new Date(sentAt),
      chainId: null,
      genesisHash: null,
      tokenAddress: null,
      cancelledByDecisionId: null,
    });
    author.totalEarnings = (Number(author.totalEarnings) + Number(TOKENS_PER_PAYMENT)).toFixed(2);
  };

  for (const index of log.order) {
    const book = books[log.book[index]!]!;
    const userIndex = log.user[index]!;
    const at = log.at[index]!;
    const pair = (book.id - 1) * sizes.users + userIndex;
    const firstTime = !downloadedBefore.has(pair);
    downloadedBefore.add(pair);
    if (authorIndexOfBook[book.id - 1] === userIndex) {
      log.outcome[index] = OUTCOME.ownBook;
      continue;
    }
    if (!firstTime) {
      log.outcome[index] = OUTCOME.repeatReader;
      continue;
    }
    const addressKey = (book.id - 1) * addressSpace + log.address[index]!;
    const recent = (countedAtAddress.get(addressKey) ?? []).filter((time) => time > at - DAY_MS);
    if (recent.length >= COUNTED_PER_IP_PER_BOOK_PER_DAY) {
      log.outcome[index] = OUTCOME.addressCap;
      continue;
    }
    countedAtAddress.set(addressKey, [...recent, at]);

    log.outcome[index] = OUTCOME.counted;
    book.downloadCount += 1;
    book.firstDownloadDate ??= new Date(at);
    users[authorIndexOfBook[book.id - 1]!]!.totalDownloads += 1;
    if (book.downloadCount % MILESTONE_STEP === 0) {
      book.paidMilestones += 1;
      const milestone = book.paidMilestones;
      pay(book, at, { kind: "milestone", key: milestoneKey(book.id, milestone), threshold: book.downloadCount, milestone });
    }
    if (book.firstBook && book.downloadCount === FIRST_BOOK_BONUS_DOWNLOADS && at < DEFAULT_PROMO_CUTOFF.getTime()) {
      book.firstBookBonusPaid = true;
      pay(book, at, { kind: "first-book-bonus", key: firstBookBonusKey(book.id), threshold: FIRST_BOOK_BONUS_DOWNLOADS, milestone: null });
    }
  }
  return payments;
}

/** What the counting rule made of each logged download, as one byte per download. */
const OUTCOME = { counted: 1, ownBook: 2, repeatReader: 3, addressCap: 4 } as const;
const NOT_COUNTED_REASON: Record<number, NotCountedReason> = { [OUTCOME.ownBook]: "own-book", [OUTCOME.repeatReader]: "repeat-reader", [OUTCOME.addressCap]: "address-cap" };

export function generateCatalog(sizes: SeedSizes, passwordHash: string): SeedCatalog {
  for (const [name, value] of Object.entries(sizes)) {
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got ${value}`);
  }
  if (sizes.users < 2 || sizes.books < 1) throw new Error("The catalog needs at least one book and two users");
  // Each part draws from its own generator, so a bigger download log leaves the books as they were.
  const users = makeUsers(sizes, new SeededRandom(sizes.seed), passwordHash);
  const authors = users.slice(0, Math.max(1, Math.round(sizes.users * AUTHOR_SHARE)));
  const books = makeBooks(sizes, new SeededRandom(sizes.seed + 1), authors);
  const log = drawDownloads(sizes, new SeededRandom(sizes.seed + 2), books);
  const payments = countDownloads(sizes, new SeededRandom(sizes.seed + 3), log, users, books);
  const { editions, startsOf } = makeEditions(books, new SeededRandom(sizes.seed + 4));
  return {
    users,
    books,
    editions,
    payments,
    downloadTotal: sizes.downloads,
    *downloadRows() {
      for (const [position, index] of log.order.entries()) {
        const userIndex = log.user[index]!;
        yield {
          id: position + 1,
          bookId: log.book[index]! + 1,
          userId: users[userIndex]!.id,
          ipAddress: addressText(log.address[index]!, sizes.users),
          // Hashes are the server's, under its key; the counting rule finds a live reader's rows by the address in clear.
          addressHash: null,
          counted: log.outcome[index] === OUTCOME.counted,
          notCountedReason: NOT_COUNTED_REASON[log.outcome[index]!] ?? null,
          channel: "download",
          downloadedAt: new Date(log.at[index]!),
          // A download records the edition it took: the one current then.
          edition: editionAt(startsOf.get(log.book[index]!), log.at[index]!),
        };
      }
    },
  };
}
