import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { linkIn } from "./smtp-inbox.ts";

export interface MailedMessage {
  subject: string;
  text: string;
  html: string;
}

/**
 * The messages the server wrote for this address under DATA_DIR/mail (its mail without SMTP_URL,
 * server/mail/mailer.ts), newest first, read from the .eml files as a mail program would.
 */
export async function mailsTo(mailDir: string, address: string): Promise<MailedMessage[]> {
  // The files are named by the time they were written, so the last one is the newest.
  const files = existsSync(mailDir) ? readdirSync(mailDir).filter((name) => name.endsWith(".eml")).sort().reverse() : [];
  const messages: MailedMessage[] = [];
  for (const name of files) {
    const parsed = await simpleParser(readFileSync(join(mailDir, name)));
    const recipients = [parsed.to ?? []].flat().flatMap((to) => to.value.map((entry) => entry.address?.toLowerCase()));
    if (recipients.includes(address.toLowerCase())) messages.push({ subject: parsed.subject ?? "", text: parsed.text ?? "", html: parsed.html || "" });
  }
  return messages;
}

/** The link of the newest message the server wrote for this address. */
export async function linkMailedTo(mailDir: string, address: string): Promise<URL> {
  const [newest] = await mailsTo(mailDir, address);
  if (!newest) throw new Error(`No mail to ${address} in ${mailDir}`);
  return linkIn({ text: newest.text });
}
