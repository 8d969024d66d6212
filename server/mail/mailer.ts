import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import nodemailer from "nodemailer";
import type { MailSettings } from "../config.ts";
import { logger } from "../system/logger.ts";

/** One message, already written in its recipient's language (server/mail/mail-texts.ts). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The link the message carries: logged when the message is written to a file, so a person can follow it. */
  link?: string;
  /** Files sent with it (a book to an e-reader): read from their path as the message goes out, never held whole in memory. */
  attachments?: MailAttachment[];
  /** Headers of the message's own (a digest's List-Unsubscribe, RFC 2369 and 8058). */
  headers?: Record<string, string>;
}

export interface MailAttachment {
  filename: string;
  path: string;
  contentType: string;
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

const serverLog: MailLog = { info: (line) => logger.info({ component: "mail" }, line), error: (line) => logger.error({ component: "mail" }, line) };

/**
 * A mail server's refusal quotes the address it refused ("550 <ana@example.test>: Recipient address
 * rejected"): the log names a message by its subject and id, never by whom it was for (docs/decisions/0040).
 */
const withoutAddresses = (text: string) => text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, "[address]");

/** A slow mail server must not hold a registration for minutes: nodemailer waits up to 2 minutes by default. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** The address of a sender such as `Plume <no-reply@plume.example>`, or the sender itself when it is a bare address. */
export function senderAddressOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from.trim();
}

function envelopeOf(settings: MailSettings, message: MailMessage) {
  const { to, subject, text, html, attachments, headers } = message;
  return { from: settings.from, to, subject, text, html, attachments, headers };
}

export function createMailer({ settings, outboxDir, log = serverLog }: MailerOptions): Mailer {
  if (settings.smtpUrl) {
    const transport = nodemailer.createTransport({ url: settings.smtpUrl, ...SMTP_TIMEOUTS });
    return {
      async send(message) {
        try {
          const { messageId } = await transport.sendMail(envelopeOf(settings, message));
          log.info(`Mail ${messageId} ("${message.subject}") sent`);
          return true;
        } catch (error) {
          log.error(`Mail ("${message.subject}") was not sent: ${withoutAddresses((error as Error).message)}`);
          return false;
        }
      },
      close: () => transport.close(),
    };
  }
  // The stream transport makes the whole RFC 822 message, as an SMTP server would receive it, and
  // streams it: a book attached is encoded as it is written, never held whole in memory.
  const transport = nodemailer.createTransport({ streamTransport: true, newline: "unix" });
  return {
    async send(message) {
      const file = join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`);
      // Written under another name and renamed once whole: no reader of the folder sees half a message.
      const partial = `${file}.part`;
      try {
        await mkdir(outboxDir, { recursive: true });
        const { message: raw } = await transport.sendMail(envelopeOf(settings, message));
        // nodemailer pushes an attachment a base64 line at a time: a 1 MiB buffer writes them in large
        // batches (a 50 MB book in about 0.5–0.9 s instead of 3 s, docs/decisions/0100).
        await pipeline(raw as Readable, createWriteStream(partial, { mode: 0o600, highWaterMark: 1 << 20 }));
        await rename(partial, file);
        log.info(`Mail ("${message.subject}") written to ${file} (no SMTP_URL)${message.link ? `; its link: ${message.link}` : ""}`);
        return true;
      } catch (error) {
        await rm(partial, { force: true }).catch(() => undefined);
        log.error(`Mail ("${message.subject}") was not written to ${outboxDir}: ${withoutAddresses((error as Error).message)}`);
        return false;
      }
    },
    close: () => transport.close(),
  };
}
