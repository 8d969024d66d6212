/** An error the API answers on purpose: a status, a stable code and a sentence for people. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    /** Sent as Retry-After: when a call refused for now is worth making again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const validationFailed = (message: string, fields: Record<string, string>) =>
  new HttpError(400, "validation_failed", message, fields);
export const invalidJson = () =>
  new HttpError(400, "invalid_json", "The request body is not valid JSON.");
export const unauthorized = (message = "Unauthorized") => new HttpError(401, "unauthorized", message);
export const invalidCredentials = () =>
  new HttpError(401, "invalid_credentials", "Invalid username, e-mail or password.");
export const forbidden = (message = "You are not allowed to do this.", code = "forbidden") =>
  new HttpError(403, code, message);
export const notFound = (message = "Not found.") => new HttpError(404, "not_found", message);
/** A book moderation removed for a breach of the terms (docs/product.md#moderation). */
export const gone = (message: string) => new HttpError(410, "gone", message);
/** A book moderation removed on a legal ground (RFC 7725). */
export const unavailableForLegalReasons = (message: string) => new HttpError(451, "unavailable_for_legal_reasons", message);
export const conflict = (code: string, message: string, fields?: Record<string, string>) =>
  new HttpError(409, code, message, fields);
export const payloadTooLarge = (message = "The request body is too large.") =>
  new HttpError(413, "payload_too_large", message);
export const unsupportedMediaType = (message: string) =>
  new HttpError(415, "unsupported_media_type", message);
export const rangeNotSatisfiable = () =>
  new HttpError(416, "range_not_satisfiable", "The requested range is outside the file.");
export const tooManyRequests = (message: string) => new HttpError(429, "rate_limited", message);
/** "Send to my e-reader" without an address to send to (docs/product.md#send-to-e-reader). */
export const eReaderEmailMissing = () =>
  new HttpError(409, "e_reader_email_missing", "Set your e-reader's e-mail address in your settings first.");
/** Amazon's mail service refuses documents over 50 MB. */
export const eReaderFileTooLarge = (maxMb: number) =>
  new HttpError(413, "e_reader_file_too_large", `This book's file is larger than the ${maxMb} MB an e-reader's mail service takes; download it instead.`);
/** The mail with the book did not go out: nothing was counted, the reader may try again. */
export const eReaderMailFailed = () =>
  new HttpError(503, "e_reader_mail_failed", "The book could not be mailed to your e-reader. Nothing was counted; try again later.");
export const serverBusy = (message: string, retryAfterSeconds?: number) => new HttpError(503, "server_busy", message, undefined, retryAfterSeconds);
export const fileStoreUnavailable = () =>
  new HttpError(503, "file_store_unavailable", "The file store did not take the file, even on a third try; nothing was kept. Try again in a minute.", undefined, 60);
export const crossSiteRequest = () =>
  new HttpError(403, "cross_site_request", "This request came from another site and was refused.");
/** A Word book's reading view is being made (docs/decisions/0051): a moment's wait, not an error of the book. */
export const bookViewPreparing = (retryAfterSeconds: number) =>
  new HttpError(503, "book_view_preparing", "This book is being prepared for reading. Try again in a few seconds.", undefined, retryAfterSeconds);
/** A Word book whose reading view could not be made: it is read by downloading it. */
export const bookViewUnavailable = () =>
  new HttpError(422, "book_view_unavailable", "This book cannot be shown in the browser; download it instead.");

/** Reviews (docs/product.md#reviews): the refusals the review form tells the reader about in words of their own. */
export const bookNotTaken = () =>
  new HttpError(403, "book_not_taken", "Only a reader who took this book (downloaded it, read it, or sent it to an e-reader) can review it.");
export const notRated = () => new HttpError(404, "not_rated", "You have not rated this book.");
export const noReview = () => new HttpError(404, "no_review", "You have not reviewed this book.");
export const reviewNotFound = () => new HttpError(404, "review_not_found", "This review does not exist.");
export const ownReview = () => new HttpError(403, "own_review", "You cannot mark your own review helpful.");
/** A book form naming a series that does not exist (docs/product.md#series-and-tags). */
export const seriesNotFound = () =>
  new HttpError(404, "series_not_found", "This series does not exist.", { seriesId: "validation.seriesUnknown" });
/** A series is its author's alone: nobody else renames it, deletes it or puts a book in it. */
export const seriesNotYours = () =>
  new HttpError(403, "series_not_yours", "This series is another author's: only its author may change it or put a book in it.", { seriesId: "validation.seriesNotYours" });
/** Two live books of a series never hold the same volume. */
export const seriesVolumeTaken = () =>
  new HttpError(409, "series_volume_taken", "Another book of this series already holds this volume.", { seriesVolume: "validation.seriesVolumeTaken" });
