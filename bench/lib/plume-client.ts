import { randomUUID } from "node:crypto";
import { createReadStream, statSync } from "node:fs";
import { request } from "node:http";
import { basename } from "node:path";

/**
 * The benchmark's requests reach Plume as from the TLS proxy production runs behind (see
 * transfer-server.ts): its session cookie is Secure, so it is only set over HTTPS.
 */
export const BEHIND_TLS_PROXY = { "X-Forwarded-Proto": "https" } as const;

/** What a browser sends: a server that compressed a book would show it in the figures. */
export const BROWSER_ACCEPT_ENCODING = { "Accept-Encoding": "gzip, deflate, br, zstd" } as const;

/**
 * Registers `count` new accounts at once; each signed-in session's cookie ("name=value"). A 503
 * server_busy (a password hash that waited 10 s for its turn, docs/decisions/0054) is tried again after
 * a pause, as its message asks.
 */
export async function registerAccounts(baseUrl: string, prefix: string, count: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const username = `${prefix}_${index + 1}`;
      const register = () => fetch(`${baseUrl}/api/auth/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...BEHIND_TLS_PROXY },
        body: JSON.stringify({
          firstName: "Bench",
          lastName: prefix,
          username,
          email: `${username}@bench.test`,
          password: "bench-password",
          confirmPassword: "bench-password",
        }),
      });
      let response = await register();
      for (let retry = 0; response.status === 503 && retry < 10; retry += 1) {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        response = await register();
      }
      if (response.status !== 201) throw new Error(`Registering ${username} answered ${response.status}: ${await response.text()}`);
      const cookie = response.headers.getSetCookie().find((header) => /^[^=]*plume\.sid=/.test(header));
      if (!cookie) throw new Error(`Registering ${username} answered without a session cookie`);
      return cookie.split(";")[0]!;
    }),
  );
}

export interface UploadAnswer {
  status: number;
  body: string;
}

const formField = (boundary: string, name: string, value: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

/**
 * Publishes a book as the browser's form does (POST /api/books, multipart), the file streamed from
 * disk so the benchmark's own memory stays flat. Resolves with the server's answer, which may come
 * before the whole file was sent (a refusal).
 */
export function uploadBook(baseUrl: string, cookie: string, book: { title: string; filePath: string }): Promise<UploadAnswer> {
  const boundary = `plume-bench-${randomUUID()}`;
  const fields = { title: book.title, description: "A large book published by the transfer benchmark.", genre: "ficcion", language: "en" };
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => formField(boundary, name, value))
      .join("") +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${basename(book.filePath)}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const { size } = statSync(book.filePath);
  return new Promise((resolve, reject) => {
    let answer: UploadAnswer | undefined;
    const file = createReadStream(book.filePath);
    const upload = request(`${baseUrl}/api/books`, {
      method: "POST",
      agent: false,
      headers: {
        Cookie: cookie,
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": String(head.length + size + tail.length),
        ...BEHIND_TLS_PROXY,
      },
    });
    upload.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        answer = { status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") };
        resolve(answer);
        // A refusal can come while the file is still going out: the rest is not needed.
        file.destroy();
        upload.destroy();
      });
    });
    upload.on("error", (error) => {
      if (!answer) reject(error);
    });
    upload.write(head);
    file.on("error", (error) => upload.destroy(error));
    file.on("end", () => upload.end(tail));
    file.pipe(upload, { end: false });
  });
}
