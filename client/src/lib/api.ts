import type { ApiErrorBody } from "@shared/api-error";
import type { QueryFunction } from "@tanstack/react-query";

/** A non-OK API answer. `message` is "<status>: <body text or status text>" (docs/product.md#errors). */
export class ApiError extends Error {
  override name = "ApiError";

  constructor(
    readonly status: number,
    bodyText: string,
    /** The JSON error body when the server sent one. */
    readonly body: ApiErrorBody | null,
    /** From a 429's Retry-After: how long until the call is worth making again. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(`${status}: ${bodyText}`);
  }
}

function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== "object" || value === null) return false;
  const { code, message } = value as Record<string, unknown>;
  return typeof code === "string" && typeof message === "string";
}

function parseErrorBody(text: string): ApiErrorBody | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return isApiErrorBody(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function apiErrorOf(status: number, statusText: string, bodyText: string, retryAfter: string | null = null): ApiError {
  const text = bodyText || statusText;
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  return new ApiError(status, text, parseErrorBody(text), Number.isFinite(seconds) && seconds > 0 ? seconds : null);
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  throw apiErrorOf(response.status, response.statusText, await response.text(), response.headers.get("Retry-After"));
}

/** Calls the API with the session cookie; a body is sent as JSON. Throws an ApiError on a non-OK answer. */
export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const hasBody = body !== undefined;
  const response = await fetch(url, {
    method,
    credentials: "include",
    headers: hasBody ? { "Content-Type": "application/json" } : undefined,
    body: hasBody ? JSON.stringify(body) : undefined,
  });
  await throwIfNotOk(response);
  return response;
}

/** The share of a request body sent so far, from 0 to 1. */
export type UploadProgressListener = (fraction: number) => void;

/**
 * Sends a multipart form with the session cookie and answers the JSON reply. It uses
 * XMLHttpRequest because fetch cannot report how much of a large book file has been sent.
 * Throws an ApiError on a non-OK answer, a TypeError when the network fails.
 */
export function sendForm<T>(method: "POST" | "PUT", url: string, form: FormData, onProgress?: UploadProgressListener): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.withCredentials = true;
    if (onProgress) {
      request.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded / event.total);
      };
    }
    request.onload = () => {
      if (request.status < 200 || request.status >= 300) {
        reject(apiErrorOf(request.status, request.statusText, request.responseText, request.getResponseHeader("Retry-After")));
        return;
      }
      try {
        resolve(JSON.parse(request.responseText) as T);
      } catch (error) {
        reject(error);
      }
    };
    request.onerror = () => reject(new TypeError("Network request failed"));
    request.onabort = () => reject(new TypeError("Network request aborted"));
    request.send(form);
  });
}

/** The TanStack Query function of every read: a GET of the query key's parts joined with "/"; any error status raises. */
export const fetchQueryKey: QueryFunction = async ({ queryKey, signal }) => {
  const response = await fetch(queryKey.join("/"), { credentials: "include", signal });
  await throwIfNotOk(response);
  return (await response.json()) as unknown;
};
