import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { MailSettings } from "../config.ts";

/** One message, already written in its recipient's language (server/mail/mail-texts.ts). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The link the message carries: logged when the message is written to a file, so a person can follow it. */
  link?: string;
}

export interface Mailer {
  /**
   * Sends, or writes the .eml file; resolves false when the message could not go out, after logging
   * why. It never throws: a mail that fails must not undo the request that caused it (docs/decisions/0033).
   */
  send(message: MailMessage): Promise<boolean>;
  close(): void;
}

export interface MailerOptions {
  settings: MailSettings;
  /** Where the .eml files go without SMTP_URL: DATA_DIR/mail. */
  outboxDir: string;
  log?: MailLog;
}

export interface MailLog {
  info(line: string): void;
  error(line: string): void;
}

const consoleLog: MailLog = { info: (line) => console.log(line), error: (line) => console.error(line) };

/** A slow mail server must not hold a registration for minutes: nodemailer waits up to 2 minutes by default. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export function createMailer({ settings, outboxDir, log = consoleLog }: MailerOptions): Mailer {
  if (settings.smtpUrl) {
    const transport = nodemailer.createTransport({ url: settings.smtpUrl, ...SMTP_TIMEOUTS });
    return {
      async send(message) {
        try {
          await transport.sendMail({ from: settings.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
          return true;
        } catch (error) {
          log.error(`Mail to ${message.to} ("${message.subject}") was not sent: ${(error as Error).message}`);
          return false;
        }
      },
      close: () => transport.close(),
    };
  }
  // The stream transport makes the whole RFC 822 message, as an SMTP server would receive it.
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(message) {
      const file = join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`);
      try {
        const { message: raw } = await transport.sendMail({ from: settings.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
        await mkdir(outboxDir, { recursive: true });
        await writeFile(file, raw as Buffer, { mode: 0o600 });
        log.info(`Mail to ${message.to} written to ${file} (no SMTP_URL)${message.link ? `; its link: ${message.link}` : ""}`);
        return true;
      } catch (error) {
        log.error(`Mail to ${message.to} ("${message.subject}") was not written to ${outboxDir}: ${(error as Error).message}`);
        return false;
      }
    },
    close: () => transport.close(),
  };
}
