import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { SESSION_COOKIE_NAME } from "../../server/app.ts";
import { HTTP_TIMEOUTS, type HttpTimeouts, hardenHttpServer } from "../../server/http/harden-server.ts";
import { newAccount } from "./test-app.ts";

export interface RawRequest {
  method: string;
  /** Sent byte for byte: no dot-segment folding or re-encoding, as a hostile client would send it. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A client for many requests to one listening app: keep-alive sockets, raw paths and bodies,
 * and a cookie jar of one session, so a fuzzer or an attack test pays no set-up per request.
 */
class StaleSocketError extends Error {
  constructor(cause: Error) {
    super("the server closed a kept-alive connection as the request was sent", { cause });
  }
}

export class RawHttpClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

  constructor(readonly port: number) {}

  async send(request: RawRequest): Promise<RawResponse> {
    try {
      return await this.sendOnce(request);
    } catch (error) {
      // A kept-alive socket the server closed as idle while this request was on its way: it was
      // never read, so it is sent again on a new connection (Node's documented remedy for this race).
      if (error instanceof StaleSocketError) return this.sendOnce(request);
      throw error;
    }
  }

  private sendOnce({ method, path, headers = {}, body }: RawRequest): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        { host: "127.0.0.1", port: this.port, method, path, headers: { ...headers, ...(body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(body)) }) }, agent: this.agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
          response.on("error", reject);
        },
      );
      request.on("error", (error: NodeJS.ErrnoException) => reject(request.reusedSocket && error.code === "ECONNRESET" ? new StaleSocketError(error) : error));
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The `name=value` of the session cookie a response set, if any. */
export function sessionCookieOf(response: RawResponse): string | undefined {
  return response.headers["set-cookie"]?.map((cookie) => cookie.split(";")[0]!).find((pair) => pair.startsWith(`${SESSION_COOKIE_NAME}=`));
}

/** The JSON of a response body, or undefined when it is not JSON. */
export function jsonOf(response: RawResponse): unknown {
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

export const postJson = (client: RawHttpClient, path: string, body: unknown, cookie?: string) =>
  client.send({ method: "POST", path, headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) }, body: JSON.stringify(body) });

export interface SignedUp {
  id: string;
  cookie: string;
  account: ReturnType<typeof newAccount>;
}

/** A new account registered through the API, with its session cookie. */
export async function signUp(client: RawHttpClient, overrides: Record<string, string> = {}): Promise<SignedUp> {
  const account = newAccount(overrides);
  const response = await postJson(client, "/api/auth/register", account);
  const cookie = sessionCookieOf(response);
  if (response.status !== 201 || !cookie) throw new Error(`could not register an account: ${response.status} ${response.body.toString()}`);
  return { id: (jsonOf(response) as { id: string }).id, cookie, account };
}

export interface ListeningApp {
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

/** One HTTP server for the app on a loopback port, set up as server.ts sets it up, for every request of a test file. */
export async function listen(app: Express, timeouts: HttpTimeouts = HTTP_TIMEOUTS): Promise<ListeningApp> {
  const server = app.listen(0, "127.0.0.1");
  hardenHttpServer(server, timeouts);
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  return {
    port: (server.address() as AddressInfo).port,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
