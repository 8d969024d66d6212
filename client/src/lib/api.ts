import type { ApiErrorBody } from "@shared/api-error";
import type { QueryFunction } from "@tanstack/react-query";

/** A non-OK API answer. `message` is "<status>: <body text or status text>" (spec §8). */
export class ApiError extends Error {
  override name = "ApiError";

  constructor(
    readonly status: number,
    bodyText: string,
    /** The JSON error body when the server sent one. */
    readonly body: ApiErrorBody | null,
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

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = (await response.text()) || response.statusText;
  throw new ApiError(response.status, text, parseErrorBody(text));
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

type UnauthorizedBehavior = "returnNull" | "throw";

/** A TanStack Query function that GETs the query key's parts joined with "/". */
export function getQueryFn<T>(options: { on401: "returnNull" }): QueryFunction<T | null>;
export function getQueryFn<T>(options: { on401: "throw" }): QueryFunction<T>;
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const response = await fetch(queryKey.join("/"), { credentials: "include", signal });
    if (on401 === "returnNull" && response.status === 401) return null;
    await throwIfNotOk(response);
    return (await response.json()) as T;
  };
}
