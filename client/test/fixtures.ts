import type { CurrentUser } from "@shared/auth";
import { vi } from "vitest";

export const ada: CurrentUser = {
  id: "5f0c6e2a-7d1b-4a59-9a55-2f4f0f3c1b11",
  username: "ada",
  email: "ada@example.test",
  emailVerified: true,
  firstName: "Ada",
  lastName: "Lovelace",
  displayName: "Ada Lovelace",
  profileImageUrl: null,
  walletAddress: null,
  notifyPaymentCompleted: true,
  showExplicit: false,
  shelvesPublic: false,
  eReaderEmail: null,
  digestFrequency: "weekly",
  totalDownloads: 0,
  totalEarnings: "0.00",
  isAdmin: false,
  isNewAccount: false,
  createdAt: "2025-01-01T00:00:00.000Z",
};

/** A fetch answer with a JSON body. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/** GET /api/auth/user when nobody is signed in. */
export const anonymousResponse = () => jsonResponse(200, null);

type FetchHandler = (url: string, init: RequestInit | undefined) => Response | Promise<Response>;

/** Replaces the global fetch; the handler sees the URL and options of each call. */
export function mockFetch(handler: FetchHandler) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(handler(String(input), init)));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}
