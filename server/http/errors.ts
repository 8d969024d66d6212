/** An error the API answers on purpose: a status, a stable code and a sentence for people. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
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
export const forbidden = (message = "You are not allowed to do this.") =>
  new HttpError(403, "forbidden", message);
export const notFound = (message = "Not found.") => new HttpError(404, "not_found", message);
export const conflict = (code: string, message: string, fields?: Record<string, string>) =>
  new HttpError(409, code, message, fields);
export const payloadTooLarge = (message = "The request body is too large.") =>
  new HttpError(413, "payload_too_large", message);
export const unsupportedMediaType = (message: string) =>
  new HttpError(415, "unsupported_media_type", message);
export const rangeNotSatisfiable = () =>
  new HttpError(416, "range_not_satisfiable", "The requested range is outside the file.");
export const tooManyRequests = (message: string) => new HttpError(429, "rate_limited", message);
export const serverBusy = (message: string) => new HttpError(503, "server_busy", message);
export const crossSiteRequest = () =>
  new HttpError(403, "cross_site_request", "This request came from another site and was refused.");
