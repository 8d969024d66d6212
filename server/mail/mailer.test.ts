import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SmtpInbox, linkIn, startSmtpInbox } from "../../test/helpers/smtp-inbox.ts";
import { freePort } from "../../test/helpers/free-port.ts";
import { composeLinkMail } from "./mail-texts.ts";
import { createMailer } from "./mailer.ts";

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
