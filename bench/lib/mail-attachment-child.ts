// One mail with a book attached, written as an .eml file, in a process of its own so that its memory
// is the mail's alone: `tsx bench/lib/mail-attachment-child.ts <streamed|buffered> <file> <outbox>`.
// Prints one JSON line: the peak resident memory above the process's at rest, the time, the file's size.
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { createMailer } from "../../server/mail/mailer.ts";

const [mode, path, outbox] = process.argv.slice(2) as ["streamed" | "buffered", string, string];
const MAIL = { from: "Plume <books@plume.example>", to: "ana@kindle.com", subject: "A book", text: "Here it is.", html: "<p>Here it is.</p>" };
const attachments = [{ filename: "book.pdf", path, contentType: "application/pdf" }];

/** What Plume's .eml writer did before it streamed: the whole message made in memory, then written. */
async function buffered(): Promise<void> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const { message } = await transport.sendMail({ ...MAIL, attachments });
  mkdirSync(outbox, { recursive: true });
  writeFileSync(join(outbox, "buffered.eml"), message as Buffer);
}

async function streamed(): Promise<void> {
  const mailer = createMailer({ settings: { smtpUrl: undefined, from: MAIL.from }, outboxDir: outbox, log: { info: () => undefined, error: (line) => console.error(line) } });
  if (!(await mailer.send({ ...MAIL, attachments }))) throw new Error("The mail was not written");
  mailer.close();
}

const atRest = process.memoryUsage().rss;
let peak = atRest;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 2);
const start = performance.now();
await (mode === "buffered" ? buffered() : streamed());
const ms = performance.now() - start;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ peakRssAboveRestMb: (peak - atRest) / 2 ** 20, ms, fileMb: statSync(path).size / 2 ** 20 }));
