import type { Wallet } from "ethers";
import type { PaymentView } from "../../shared/wallet.ts";
import { buildWalletProofMessage } from "../../shared/wallet-proof.ts";
import type { WalletChallenge } from "../../shared/wallet-schemas.ts";
import type { PaymentDiagnostics } from "../../shared/admin.ts";

/** The server did not answer (killed, restarting): the outcome of the call is unknown. */
export class ServerUnreachableError extends Error {
  override name = "ServerUnreachableError";
}

/** The server answered with a status the caller did not expect. */
export class UnexpectedStatusError extends Error {
  override name = "UnexpectedStatusError";
  constructor(
    readonly status: number,
    readonly call: string,
    body: string,
  ) {
    super(`${call} answered ${status}: ${body.slice(0, 300)}`);
  }
}

export interface Session {
  userId: string;
  username: string;
  cookie: string;
}

export interface UploadFile {
  name: string;
  bytes: Buffer;
  type: string;
}

export interface PlumeApiOptions {
  /** Sent with every call: a client address in X-Forwarded-For, for a server behind a proxy. */
  headers?: Record<string, string>;
  /** Told every answer, as it came, before its status is judged (a proxy's headers say who answered). */
  onAnswer?: (response: Response) => void;
}

/**
 * The Plume HTTP API as a browser uses it (session cookie, JSON, multipart uploads), against a
 * server whose address changes at every restart.
 */
export class PlumeApi {
  constructor(
    private readonly baseUrl: () => string,
    private readonly options: PlumeApiOptions = {},
  ) {}

  private async call(method: string, path: string, options: { session?: Session; json?: unknown; form?: FormData } = {}) {
    const headers: Record<string, string> = { ...this.options.headers };
    if (options.session) headers.cookie = options.session.cookie;
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form;
    }
    let response: Response;
    let bytes: ArrayBuffer;
    try {
      response = await fetch(`${this.baseUrl()}${path}`, { method, headers, body });
      // The whole body is read, so a download is only acknowledged once it was served.
      bytes = await response.arrayBuffer();
    } catch (error) {
      throw new ServerUnreachableError(`${method} ${path}: ${(error as Error).cause ?? (error as Error).message}`);
    }
    this.options.onAnswer?.(response);
    const text = () => Buffer.from(bytes).toString("utf8");
    return { response, bytes: () => Buffer.from(bytes), text, json: <T>() => JSON.parse(text()) as T };
  }

  private static expect(result: Awaited<ReturnType<PlumeApi["call"]>>, status: number, call: string) {
    if (result.response.status !== status) throw new UnexpectedStatusError(result.response.status, call, result.text());
    return result;
  }

  async register(account: { username: string; email: string; password: string }): Promise<Session> {
    const result = PlumeApi.expect(
      await this.call("POST", "/api/auth/register", {
        json: { firstName: "Ada", lastName: "Reliable", ...account, confirmPassword: account.password },
      }),
      201,
      "register",
    );
    return PlumeApi.sessionOf(result, account.username, "register");
  }

  /** A new session for an account that exists. */
  async signIn(username: string, password: string): Promise<Session> {
    return PlumeApi.sessionOf(PlumeApi.expect(await this.call("POST", "/api/auth/login", { json: { username, password } }), 200, "sign-in"), username, "sign-in");
  }

  private static sessionOf(result: Awaited<ReturnType<PlumeApi["call"]>>, username: string, call: string): Session {
    const cookie = result.response.headers.getSetCookie().find((header) => header.startsWith("plume.sid="));
    if (!cookie) throw new Error(`${call} answered without a session cookie`);
    return { userId: result.json<{ id: string }>().id, username, cookie: cookie.split(";")[0]! };
  }

  /** Proves the wallet as a browser does: a nonce, a Sign-In with Ethereum message for this server, signed by the key. */
  async connectWallet(session: Session, wallet: Wallet): Promise<void> {
    const challenge = PlumeApi.expect(await this.call("POST", "/api/wallet/nonce", { session, json: { walletAddress: wallet.address } }), 200, "wallet nonce").json<WalletChallenge>();
    const site = new URL(this.baseUrl());
    const message = buildWalletProofMessage({
      domain: site.host,
      address: challenge.walletAddress,
      statement: "Connect this wallet to receive my Plume payments.",
      uri: `${site.origin}/dashboard`,
      chainId: challenge.chainId,
      nonce: challenge.nonce,
      issuedAt: new Date().toISOString(),
    });
    const json = { message, signature: await wallet.signMessage(message) };
    PlumeApi.expect(await this.call("POST", "/api/wallet/connect", { session, json }), 200, "wallet connect");
  }

  async uploadBook(session: Session, book: { title: string; file: UploadFile; cover: UploadFile | null }): Promise<number> {
    const form = new FormData();
    form.set("title", book.title);
    form.set("description", "A book written to be downloaded while the server is killed.");
    form.set("genre", "ficcion");
    form.set("language", "en");
    form.set("file", new Blob([new Uint8Array(book.file.bytes)], { type: book.file.type }), book.file.name);
    if (book.cover) form.set("coverImage", new Blob([new Uint8Array(book.cover.bytes)], { type: book.cover.type }), book.cover.name);
    const result = PlumeApi.expect(await this.call("POST", "/api/books", { session, form }), 201, "upload");
    return result.json<{ id: number }>().id;
  }

  /** A published book's cover URL, as its page gets it (null: the placeholder). */
  async coverOf(bookId: number): Promise<string | null> {
    return PlumeApi.expect(await this.call("GET", `/api/books/${bookId}`), 200, "book").json<{ coverImageUrl: string | null }>().coverImageUrl;
  }

  /** A stored file's bytes and type, as a browser gets them (a cover). */
  async fetchFile(path: string): Promise<{ status: number; type: string | null; bytes: number }> {
    const result = await this.call("GET", path);
    return { status: result.response.status, type: result.response.headers.get("content-type"), bytes: result.bytes().length };
  }

  /** The book's file, as served. */
  async download(session: Session, bookId: number): Promise<Buffer> {
    return PlumeApi.expect(await this.call("POST", `/api/books/${bookId}/download`, { session }), 200, "download").bytes();
  }

  /** The ids of the catalog's first page for a search, best match first. */
  async search(text: string): Promise<number[]> {
    const result = PlumeApi.expect(await this.call("GET", `/api/books?search=${encodeURIComponent(text)}`), 200, "catalog search");
    return result.json<Array<{ id: number }>>().map((book) => book.id);
  }

  /** "Forgot password?": its status alone (202, or 429 once the limit is reached). */
  async askPasswordReset(email: string): Promise<number> {
    return (await this.call("POST", "/api/auth/forgot-password", { json: { email } })).response.status;
  }

  async authorBookIds(authorId: string): Promise<number[]> {
    const result = PlumeApi.expect(await this.call("GET", `/api/authors/${authorId}/books`), 200, "author books");
    return result.json<Array<{ id: number }>>().map((book) => book.id);
  }

  async payments(session: Session): Promise<PaymentView[]> {
    return PlumeApi.expect(await this.call("GET", `/api/authors/${session.userId}/payments`, { session }), 200, "payments").json<PaymentView[]>();
  }

  async paymentDiagnostics(admin: Session): Promise<PaymentDiagnostics> {
    return PlumeApi.expect(await this.call("GET", "/api/admin/payment-diagnostics", { session: admin }), 200, "payment diagnostics").json<PaymentDiagnostics>();
  }
}
