import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SmtpInbox, linkIn, startSmtpInbox } from "../../test/helpers/smtp-inbox.ts";
import { freePort } from "../../test/helpers/free-port.ts";
import { fixture } from "../../test/helpers/book-fixtures.ts";
import { composeBookToEReaderMail, composeLinkMail } from "./mail-texts.ts";
import { createMailer, senderAddressOf } from "./mailer.ts";

const FROM = "Plume <no-reply@plume.test>";

function recordingLog() {
  const lines: { level: "info" | "error"; line: string }[] = [];
  return { lines, log: { info: (line: string) => lines.push({ level: "info", line }), error: (line: string) => lines.push({ level: "error", line }) } };
}

const verifyMail = (language: string, name = "Ana <b>&</b>") =>
  composeLinkMail({
    kind: "verifyEmail",
    to: "ana@example.test",
    language,
    link: "http://plume.test/verify-email?token=abc_-123",
    values: { productName: "Plume", name, email: "ana@example.test" },
  });

describe("mail messages", () => {
  it("are written in the recipient's language, English for anything else, and escape every value in the HTML", () => {
    expect(verifyMail("es").subject).toBe("Confirma tu dirección de correo en Plume");
    expect(verifyMail("fr").subject).toBe("Confirmez votre adresse e-mail sur Plume");
    expect(verifyMail("de").subject).toBe("Confirm your e-mail address on Plume");
    const message = verifyMail("en");
    expect(message.text).toContain("Hello Ana <b>&</b>, open this link");
    expect(message.text).toContain("\nhttp://plume.test/verify-email?token=abc_-123\n");
    expect(message.html).toContain("Hello Ana &lt;b&gt;&amp;&lt;/b&gt;, open this link");
    expect(message.html).not.toContain("<b>");
    expect(message.html).toContain('<a href="http://plume.test/verify-email?token=abc_-123">Confirm my address</a>');
  });
});

const bookMail = (language: string, author: string | null = "Rosalía de Castro") => ({
  ...composeBookToEReaderMail({ to: "ana@kindle.com", language, values: { productName: "Plume", title: "Follas <novas>" }, author, link: "http://plume.test/books/7-follas-novas" }),
  attachments: [{ filename: "Follas novas.pdf", path: fixture("book.pdf"), contentType: "application/pdf" }],
});

describe("a book mailed to an e-reader", () => {
  it("names the book and its author in the reader's language, the anonymous author in words, every value escaped in the HTML", () => {
    expect(bookMail("en").subject).toBe("“Follas <novas>” by Rosalía de Castro");
    expect(bookMail("es").subject).toBe("«Follas <novas>», de Rosalía de Castro");
    expect(bookMail("fr", null).subject).toBe("« Follas <novas> » de Auteur anonyme");
    expect(bookMail("en").html).toContain("Follas &lt;novas&gt;");
    expect(bookMail("en").text).toContain("The book's page on Plume: http://plume.test/books/7-follas-novas");
  });

  it("reads the sender's address out of MAIL_FROM", () => {
    expect(senderAddressOf("Plume <no-reply@plume.example>")).toBe("no-reply@plume.example");
    expect(senderAddressOf(" books@plume.example ")).toBe("books@plume.example");
    expect(senderAddressOf('"Plume, the books" <books@plume.example>')).toBe("books@plume.example");
  });
});

describe("the mailer", () => {
  let inbox: SmtpInbox;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
  });
  afterAll(() => inbox.close());

  it("sends plain text and HTML through SMTP_URL", async () => {
    const { log, lines } = recordingLog();
    const mailer = createMailer({ settings: { smtpUrl: inbox.url, from: FROM }, outboxDir: "/nonexistent", log });
    await expect(mailer.send(verifyMail("fr", "Zoé"))).resolves.toBe(true);
    mailer.close();
    const mail = await inbox.next("ana@example.test");
    expect(mail.from).toBe('"Plume" <no-reply@plume.test>');
    expect(mail.subject).toBe("Confirmez votre adresse e-mail sur Plume");
    expect(mail.text).toContain("Bonjour Zoé");
    expect(mail.html).toContain("Confirmer mon adresse");
    expect(linkIn(mail).searchParams.get("token")).toBe("abc_-123");
    // The log names the message by its id and subject; whom it was for stays out of it.
    expect(lines).toEqual([{ level: "info", line: expect.stringMatching(/^Mail <[^>]+> \("Confirmez votre adresse e-mail sur Plume"\) sent$/) as string }]);
  });

  it("sends a book attached through SMTP_URL, read from its path", async () => {
    const mailer = createMailer({ settings: { smtpUrl: inbox.url, from: FROM }, outboxDir: "/nonexistent", log: recordingLog().log });
    await expect(mailer.send(bookMail("en"))).resolves.toBe(true);
    mailer.close();
    const parsed = await simpleParser((await inbox.next("ana@kindle.com")).raw);
    expect(parsed.attachments.map((attachment) => [attachment.filename, attachment.contentType])).toEqual([["Follas novas.pdf", "application/pdf"]]);
    expect(parsed.attachments[0]!.content.equals(readFileSync(fixture("book.pdf")))).toBe(true);
  });

  it("writes a book attached into the .eml file, and leaves no file when the attachment cannot be read", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "plume-mail-"));
    try {
      const outboxDir = join(dataDir, "mail");
      const { log, lines } = recordingLog();
      const mailer = createMailer({ settings: { smtpUrl: undefined, from: FROM }, outboxDir, log });
      await expect(mailer.send(bookMail("fr"))).resolves.toBe(true);
      const [file] = readdirSync(outboxDir);
      const parsed = await simpleParser(readFileSync(join(outboxDir, file!)));
      expect(parsed.attachments[0]!.content.equals(readFileSync(fixture("book.pdf")))).toBe(true);

      const missing = { ...bookMail("fr"), attachments: [{ filename: "x.pdf", path: join(dataDir, "gone.pdf"), contentType: "application/pdf" }] };
      await expect(mailer.send(missing)).resolves.toBe(false);
      expect(readdirSync(outboxDir)).toEqual([file]);
      expect(lines.at(-1)).toMatchObject({ level: "error", line: expect.stringContaining("was not written") as string });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("logs a message the SMTP server does not take, and resolves false instead of throwing", async () => {
    const { log, lines } = recordingLog();
    const mailer = createMailer({ settings: { smtpUrl: `smtp://127.0.0.1:${await freePort()}`, from: FROM }, outboxDir: "/nonexistent", log });
    await expect(mailer.send(verifyMail("en"))).resolves.toBe(false);
    mailer.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe("error");
    expect(lines[0]!.line).toMatch(/^Mail \("Confirm your e-mail address on Plume"\) was not sent: .*ECONNREFUSED/);
    expect(lines[0]!.line).not.toContain("ana@example.test");
  });

  it("without SMTP_URL writes each message as an .eml file and logs its link", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "plume-mail-"));
    try {
      const { log, lines } = recordingLog();
      const outboxDir = join(dataDir, "mail");
      const mailer = createMailer({ settings: { smtpUrl: undefined, from: FROM }, outboxDir, log });
      await expect(mailer.send(verifyMail("es"))).resolves.toBe(true);
      const files = readdirSync(outboxDir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const parsed = await simpleParser(readFileSync(join(outboxDir, files[0]!)));
      expect(parsed.subject).toBe("Confirma tu dirección de correo en Plume");
      expect(parsed.from?.value[0]?.address).toBe("no-reply@plume.test");
      expect(parsed.text).toContain("http://plume.test/verify-email?token=abc_-123");
      expect(lines).toEqual([{ level: "info", line: expect.stringContaining("its link: http://plume.test/verify-email?token=abc_-123") as string }]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("logs a file it cannot write", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "plume-mail-"));
    try {
      // The data folder's "mail" is a file here, so no folder can be made there.
      const outboxDir = join(dataDir, "mail");
      writeFileSync(outboxDir, "");
      const { log, lines } = recordingLog();
      const mailer = createMailer({ settings: { smtpUrl: undefined, from: FROM }, outboxDir, log });
      await expect(mailer.send(verifyMail("en"))).resolves.toBe(false);
      expect(lines.map((entry) => entry.level)).toEqual(["error"]);
      expect(lines[0]!.line).toContain(`was not written to ${outboxDir}`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
