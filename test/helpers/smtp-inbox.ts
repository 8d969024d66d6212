import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A message as the SMTP server received it, parsed as a mail program would read it. */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface SmtpInbox {
  /** smtp://127.0.0.1:<port>: what SMTP_URL is set to. */
  url: string;
  messages: ReceivedMail[];
  /** Waits for the next message to this address that arrived after the last one taken for it. */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a loopback port (the smtp-server package), so API tests see what a mail
 * server would receive: the app sends through nodemailer's SMTP transport, no mock in between.
 */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw)
          .then((parsed) => {
            messages.push(received(parsed, recipients, raw));
            for (const wake of waiters) wake();
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.server.address() as { port: number }).port));
  });

  const find = (to: string) => messages.find((message) => !taken.has(message) && message.to.includes(to.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    next(to, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const settle = () => {
          const message = find(to);
          if (!message) return false;
          taken.add(message);
          waiters.delete(check);
          clearTimeout(timer);
          resolve(message);
          return true;
        };
        const check = () => void settle();
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No mail reached ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!settle()) waiters.add(check);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function received(parsed: ParsedMail, recipients: string[], raw: string): ReceivedMail {
  return {
    to: recipients,
    from: parsed.from?.text ?? "",
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
    html: typeof parsed.html === "string" ? parsed.html : "",
    raw,
  };
}

/** The first http(s) link of a message's plain text: the one a person would follow. */
export function linkIn(mail: Pick<ReceivedMail, "text">): URL {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`No link in the mail:\n${mail.text}`);
  return new URL(match[0]);
}
