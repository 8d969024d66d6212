import { STATUS_CODES, type Server } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { ApiErrorBody } from "../../shared/api-error.ts";

export interface HttpTimeouts {
  /** The request line and headers must arrive within this (slow-loris). */
  headersMs: number;
  /** The whole request, body included: a 50 MB book still gets through at about 170 KB/s. */
  requestMs: number;
  /** A connection that sends nothing for this long is closed, with the upload it was sending. */
  idleMs: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 20_000, requestMs: 300_000, idleMs: 30_000 };

/** Refusals Node makes before Express sees the request, as [status, code, message]. */
const PARSER_REFUSALS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, "headers_too_large", "The request line or headers are too large."],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "request_timeout", "The request took too long to arrive."],
};

function refuseRaw(socket: Duplex, status: number, body: ApiErrorBody): void {
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    // A stalled client never closes its side: close the connection once the answer is flushed.
    () => socket.destroy(),
  );
}

/** Whether the app already started answering on this connection: another status line would corrupt it (Node's own check). */
const answerStarted = (socket: Duplex) => Boolean((socket as Duplex & { _httpMessage?: { headersSent: boolean } })._httpMessage?.headersSent);

/**
 * Bounds how long a client may take (so a stalled upload does not hold a connection and a temporary
 * file for minutes), answers what Node's parser refuses (a too-long URL, a malformed request,
 * a request that took too long) in the API's JSON error shape instead of an empty body, and keeps
 * each connection's client address.
 */
export function hardenHttpServer(server: Server, timeouts: HttpTimeouts = HTTP_TIMEOUTS): void {
  // A socket asks the kernel for its peer's address when first asked and keeps the answer; asked
  // only after the client has reset the connection, it has none, and a download would be counted
  // against no address (docs/decisions/0020). Asking as the connection opens keeps it.
  server.on("connection", (socket: Socket) => void socket.remoteAddress);
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.setTimeout(timeouts.idleMs);
  // A kept-alive connection lasts as long as any idle one: Node's 5 s default closes sockets a client
  // is about to reuse, and that client's next request dies with ECONNRESET.
  server.keepAliveTimeout = timeouts.idleMs;
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable || answerStarted(socket)) {
      socket.destroy();
      return;
    }
    const [status, code, message] = PARSER_REFUSALS[error.code ?? ""] ?? [400, "bad_request", "The request could not be read."];
    refuseRaw(socket, status, { message, code });
  });
}
