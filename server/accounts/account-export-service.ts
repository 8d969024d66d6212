import { listKeysOf } from "../opds/e-reader-keys-repository.ts";
import { listEveryBookOf } from "../books/books-repository.ts";
import { listEditionsOfBooks } from "../books/editions-repository.ts";
import { listSeriesOf } from "../series/series-repository.ts";
import { listTagsOfBooks } from "../series/tags-repository.ts";
import type { Db } from "../db/client.ts";
import { listCountedDownloadsOfAuthor, listDownloadsByReader } from "../downloads/downloads-repository.ts";
import { notFound } from "../http/errors.ts";
import { listRatingsBy } from "../ratings/ratings-repository.ts";
import { listFollowedBy } from "../follows/follows-repository.ts";
import { listRepliesBy, listReviewsBy } from "../ratings/reviews-repository.ts";
import { listShelfEntriesOf } from "../shelves/shelves-repository.ts";
import { listAuthorPayments } from "../rewards/payments-repository.ts";
import { findOpenAccount } from "./users-repository.ts";

/** Bumped when a field changes meaning, so a program reading older exports can tell them apart. */
export const ACCOUNT_EXPORT_VERSION = 1;

const iso = (at: Date | null) => at?.toISOString() ?? null;

/**
 * Everything Plume holds about the account, as its owner may take it away (docs/product.md#settings):
 * the profile, the books and what happened to them, the ratings and reviews given, the replies written, the shelves, the books taken, the payments.
 * Never the password's hash, a key's hash, or anything about other people (who downloaded a book is
 * the readers' data: the author gets when and how, not who).
 */
export async function exportAccountData(db: Db, userId: string, now: Date) {
  const user = await findOpenAccount(db, userId);
  if (!user) throw notFound("There is no such account.");
  const [books, ratings, reviews, replies, taken, countedDownloads, payments, keys, followed, series, shelved] = await Promise.all([
    listEveryBookOf(db, userId),
    listRatingsBy(db, userId),
    listReviewsBy(db, userId),
    listRepliesBy(db, userId),
    listDownloadsByReader(db, userId),
    listCountedDownloadsOfAuthor(db, userId),
    listAuthorPayments(db, userId),
    listKeysOf(db, userId),
    listFollowedBy(db, userId),
    listSeriesOf(db, userId),
    listShelfEntriesOf(db, userId),
  ]);
  const bookIds = books.map((book) => book.id);
  const [editions, tagsOf] = await Promise.all([listEditionsOfBooks(db, bookIds), listTagsOfBooks(db, bookIds)]);
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
      shelvesPublic: user.shelvesPublic,
      eReaderEmail: user.eReaderEmail,
      digestFrequency: user.digestFrequency,
      digestSentThrough: iso(user.digestSentThrough),
      totalDownloads: user.totalDownloads,
      totalEarnings: user.totalEarnings,
      createdAt: iso(user.createdAt),
      lastSignInAt: iso(user.lastSignInAt),
    },
    books: books.map((book) => ({
      id: book.id,
      edition: book.edition,
      // Every edition of its file, with what changed (docs/product.md#editions).
      editions: editions
        .filter((edition) => edition.bookId === book.id)
        .map((edition) => ({
          number: edition.number,
          fileName: edition.fileName,
          fileSize: edition.fileSize,
          mimeType: edition.mimeType,
          changelog: edition.changelog,
          createdAt: iso(edition.createdAt),
        })),
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
      seriesId: book.seriesId,
      seriesVolume: book.seriesVolume === null ? null : Number(book.seriesVolume),
      tags: (tagsOf.get(book.id) ?? []).map((tag) => tag.name),
    })),
    series: series.map((each) => ({ id: each.id, title: each.title, description: each.description, createdAt: iso(each.createdAt), updatedAt: iso(each.updatedAt) })),
    ratingsGiven: ratings.map((rating) => ({ ...rating, ratedAt: iso(rating.ratedAt) })),
    // The reviews written and the replies to reviews of one's books (docs/product.md#reviews); a reply's review is its writer's, not exported.
    reviewsWritten: reviews.map((review) => ({ ...review, createdAt: iso(review.createdAt), updatedAt: iso(review.updatedAt), removedAt: iso(review.removedAt) })),
    repliesWritten: replies.map((reply) => ({ ...reply, repliedAt: iso(reply.repliedAt) })),
    shelves: shelved.map((entry) => ({ ...entry, shelvedAt: iso(entry.shelvedAt) })),
    booksTaken: taken.map((download) => ({ ...download, downloadedAt: iso(download.downloadedAt) })),
    countedDownloadsOfMyBooks: countedDownloads.map((download) => ({ ...download, downloadedAt: iso(download.downloadedAt) })),
    payments,
    // Whom the account follows (who follows it is theirs to tell: the author gets a count, docs/product.md#follows).
    following: followed.map((follow) => ({ authorId: follow.authorId, authorName: [follow.firstName, follow.lastName].filter(Boolean).join(" ") || null, followedAt: iso(follow.followedAt) })),
    eReaderKeys: keys.map((key) => ({ name: key.name, createdAt: iso(key.createdAt), lastUsedAt: iso(key.lastUsedAt), revokedAt: iso(key.revokedAt) })),
  };
}
