import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { type IncomingMessage, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixture } from "../helpers/book-fixtures.ts";
import { TEST_CHAIN } from "../helpers/test-app.ts";
import { PlumeApi } from "./plume-api.ts";
import { ServerProcess, throwawayServerSettings } from "./server-process.ts";

interface HeldUpload {
  /** Sends the rest of the form; resolves with the answer once it is read whole. */
  finish(): Promise<{ status: number; body: string }>;
}

/** An upload whose first half is sent now and the rest only when asked: a request in flight for as long as the test wants. */
async function holdUpload(url: string, cookie: string): Promise<HeldUpload> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ title: "Held open", description: "An upload in flight when the server is told to stop.", genre: "ficcion", language: "en" })) {
    form.set(name, value);
  }
  form.set("file", new Blob([readFileSync(fixture("book.pdf"))], { type: "application/pdf" }), "book.pdf");
  // The multipart bytes and their boundary exactly as fetch would send them.
  const encoded = new Request(url, { method: "POST", body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const { hostname, port } = new URL(url);
  const request = httpRequest({
    host: hostname,
    port,
    path: "/api/books",
    method: "POST",
    headers: { cookie, "content-type": encoded.headers.get("content-type")!, "content-length": body.length },
  });
  const answered = new Promise<IncomingMessage>((resolve, reject) => request.once("response", resolve).once("error", reject));
  // A request the server cuts fails here; only finish() asks for the answer, and a cut one is never asked.
  answered.catch(() => {});
  const half = Math.floor(body.length / 2);
  await new Promise<void>((resolve) => request.write(body.subarray(0, half), () => resolve()));
  return {
    async finish() {
      request.end(body.subarray(half));
      const response = await answered;
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      return { status: response.statusCode!, body: Buffer.concat(chunks).toString("utf8") };
    },
  };
}

/** Whether a new connection is refused: the listening socket is closed. */
async function refusesConnections(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/healthz`);
    return false;
  } catch (error) {
    return ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code === "ECONNREFUSED";
  }
}

async function eventually(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

// A server process's start is allowed 240 s and its stop 30 s (server-process.ts): a fresh data folder's
// initdb and migrations take some 10 s of a quiet core, and `npm test` runs this beside every other
// suite, where a start took over 120 s twice in a day.
const PROCESS_TEST_TIMEOUT_MS = 300_000;

describe("a graceful shutdown (docs/decisions/0041)", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  let output = "";

  const start = async (settings: Record<string, string> = {}) => {
    dataDir = mkdtempSync(join(tmpdir(), "plume-shutdown-"));
    output = "";
    server = await ServerProcess.start(
      { ...(await throwawayServerSettings(dataDir)), ...settings },
      (text) => (output += text),
    );
    const api = new PlumeApi(() => server!.url);
    const session = await api.register({ username: "held_author", email: "held@shutdown.test", password: "shutdown-pass" });
    return holdUpload(server.url, session.cookie);
  };

  afterEach(async () => {
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("on SIGTERM refuses new connections, finishes the upload in flight, then exits 0", async () => {
    const upload = await start();
    const stopped = server!.stop();
    expect(await eventually(() => refusesConnections(server!.url), 5_000)).toBe(true);

    const answer = await upload.finish();
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ title: "Held open" });
    expect(await stopped).toBeNull();
    expect(output).toMatch(/"msg":"stopped cleanly"/);
  });

  it("past SHUTDOWN_TIMEOUT_SECONDS cuts what is still in flight, names it, and exits 1", async () => {
    // Its second half never comes: the upload is still in flight when the timeout falls.
    await start({ SHUTDOWN_TIMEOUT_SECONDS: "1" });
    expect(await server!.stop()).toBe("it ended with exit 1");
    expect(output).toMatch(/"cut":\{"stage":"waiting for the requests in flight, the payout round and the cover being drawn","requests":\["POST \/api\/books"\]\}/);
  });
});

describe("a start with a setting missing", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("in production without PUBLIC_URL ends at once with one line naming it, and exit 1 (docs/decisions/0053)", async () => {
    const production = {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "0",
      SESSION_SECRET: "x".repeat(32),
      DATABASE_URL: "postgres://127.0.0.1:9/unused",
      RPC_URL: TEST_CHAIN.rpcUrl,
      PME_TOKEN_ADDRESS: TEST_CHAIN.tokenAddress,
      BATCH_PAYER_ADDRESS: TEST_CHAIN.batchPayerAddress,
      PAYOUT_PRIVATE_KEY: TEST_CHAIN.payoutPrivateKey,
    };
    await expect(ServerProcess.start(production, () => {})).rejects.toThrow(
      /^The server stopped at start \(exit 1\): Plume could not start: Invalid setting PUBLIC_URL: is required in production$/,
    );
  });
});
