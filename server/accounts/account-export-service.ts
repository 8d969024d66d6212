import { listKeysOf } from "../opds/e-reader-keys-repository.ts";
import { listEveryBookOf } from "../books/books-repository.ts";
import type { Db } from "../db/client.ts";
import { listCountedDownloadsOfAuthor, listDownloadsByReader } from "../downloads/downloads-repository.ts";
import { notFound } from "../http/errors.ts";
import { listRatingsBy } from "../ratings/ratings-repository.ts";
import { listAuthorPayments } from "../rewards/payments-repository.ts";
import { findOpenAccount } from "./users-repository.ts";

/** Bumped when a field changes meaning, so a program reading older exports can tell them apart. */
export const ACCOUNT_EXPORT_VERSION = 1;

const iso = (at: Date | null) => at?.toISOString() ?? null;

/**
 * Everything Plume holds about the account, as its owner may take it away (docs/product.md#settings):
 * the profile, the books and what happened to them, the ratings given, the books taken, the payments.
 * Never the password's hash, a key's hash, or anything about other people (who downloaded a book is
 * the readers' data: the author gets when and how, not who).
 */
export async function exportAccountData(db: Db, userId: string, now: Date) {
  const user = await findOpenAccount(db, userId);
  if (!user) throw notFound("There is no such account.");
  const [books, ratings, taken, countedDownloads, payments, keys] = await Promise.all([
    listEveryBookOf(db, userId),
    listRatingsBy(db, userId),
    listDownloadsByReader(db, userId),
    listCountedDownloadsOfAuthor(db, userId),
    listAuthorPayments(db, userId),
    listKeysOf(db, userId),
  ]);
  return {
    format: "plume-account-export",
    version: ACCOUNT_EXPORT_VERSION,
    exportedAt: now.toISOString(),
    profile: {
      id: user.id,
      username: user.username,
      email: user.email,
      emailVerifiedAt: iso(user.emailVerifiedAt),
      firstName: user.firstName,
      lastName: user.lastName,
      language: user.language,
      walletAddress: user.walletAddress,
      notifyPaymentCompleted: user.notifyPaymentCompleted,
      showExplicit: user.showExplicit,
      eReaderEmail: user.eReaderEmail,
      totalDownloads: user.totalDownloads,
      totalEarnings: user.totalEarnings,
      createdAt: iso(user.createdAt),
      lastSignInAt: iso(user.lastSignInAt),
    },
    books: books.map((book) => ({
      id: book.id,
      title: book.title,
      description: book.description,
      genre: book.genre,
      contentRating: book.contentRating,
      language: book.language,
      fileName: book.fileName,
      fileSize: book.fileSize,
      mimeType: book.mimeType,
      pageCount: book.pageCount,
      published: book.isPublished,
      downloadCount: book.downloadCount,
      rating: book.rating,
      ratingCount: book.reviewCount,
      createdAt: iso(book.createdAt),
      updatedAt: iso(book.updatedAt),
      deletedAt: iso(book.deletedAt),
    })),
    ratingsGiven: ratings.map((rating) => ({ ...rating, ratedAt: iso(rating.ratedAt) })),
    booksTaken: taken.map((download) => ({ ...download, downloadedAt: iso(download.downloadedAt) })),
    countedDownloadsOfMyBooks: countedDownloads.map((download) => ({ ...download, downloadedAt: iso(download.downloadedAt) })),
    payments,
    eReaderKeys: keys.map((key) => ({ name: key.name, createdAt: iso(key.createdAt), lastUsedAt: iso(key.lastUsedAt), revokedAt: iso(key.revokedAt) })),
  };
}
