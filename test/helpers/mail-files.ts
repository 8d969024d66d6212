import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { linkIn } from "./smtp-inbox.ts";

/**
 * The link of the newest message the server wrote for this address under DATA_DIR/mail (its mail
 * without SMTP_URL, server/mail/mailer.ts), read from the .eml file as a mail program would.
 */
export async function linkMailedTo(mailDir: string, address: string): Promise<URL> {
  // The files are named by the time they were written, so the last one is the newest.
  const files = existsSync(mailDir) ? readdirSync(mailDir).filter((name) => name.endsWith(".eml")).sort().reverse() : [];
  for (const name of files) {
    const parsed = await simpleParser(readFileSync(join(mailDir, name)));
    const recipients = [parsed.to ?? []].flat().flatMap((to) => to.value.map((entry) => entry.address?.toLowerCase()));
    if (recipients.includes(address.toLowerCase())) return linkIn({ text: parsed.text ?? "" });
  }
  throw new Error(`No mail to ${address} in ${mailDir}`);
}
