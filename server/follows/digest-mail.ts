import { bookPath } from "../../shared/book-urls.ts";
import { DEFAULT_LANGUAGE, type InterfaceLanguage, isInterfaceLanguage } from "../../shared/languages.ts";
import { ALL_TEXTS } from "../../shared/locales/all-texts.ts";
import type { DigestFrequency } from "../../shared/returning-readers.ts";
import { authorDisplayName } from "../books/present-book.ts";
import { escapeHtml } from "../mail/mail-texts.ts";
import type { MailMessage } from "../mail/mailer.ts";
import type { FollowedBookRow, NewEditionRow } from "./follows-repository.ts";

export interface DigestMail {
  to: string;
  language: string;
  frequency: Exclude<DigestFrequency, "off">;
  values: { productName: string; name: string };
  items: Array<FollowedBookRow | NewEditionRow>;
  /** How many more there were than the mail lists. */
  more: number;
  origin: string;
  /** The one-click unsubscribe link (RFC 8058): a POST unsubscribes, a GET opens the page that asks. */
  unsubscribeLink: string;
}

const languageOf = (language: string): InterfaceLanguage => (isInterfaceLanguage(language) ? language : DEFAULT_LANGUAGE);

const fill = (template: string, values: Record<string, string>, escape: (value: string) => string = (value) => value) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? escape(values[name]!) : whole));
const fillHtml = (template: string, values: Record<string, string>) => fill(escapeHtml(template), values, escapeHtml);

/**
 * The digest of new books and editions from followed authors (docs/product.md#follows), in the
 * reader's language, plain text and HTML with every value escaped (titles, names and changelogs are
 * whatever their authors typed). It carries List-Unsubscribe and List-Unsubscribe-Post, so a mail
 * program offers its own one-click unsubscribe (RFC 8058).
 */
export function composeDigestMail({ to, language, frequency, values, items, more, origin, unsubscribeLink }: DigestMail): MailMessage {
  const lang = languageOf(language);
  const all = ALL_TEXTS[lang];
  const texts = all.mail.digest;
  const date = new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "UTC" });
  const whole = { ...values, count: String(more), frequency: texts.frequency[frequency] };
  const homeLink = `${origin}/`;
  const settingsLink = `${origin}/settings#digest`;
  const entries = items.map((item) => {
    const entryValues = {
      title: item.title,
      author: authorDisplayName(item) ?? all.book.anonymousAuthor,
      edition: "editionNumber" in item ? String(item.editionNumber) : "",
      date: date.format(item.at),
    };
    const line = "editionNumber" in item ? texts.newEdition : texts.newBook;
    const changelog = "editionNumber" in item && item.changelog?.trim() ? item.changelog.trim() : null;
    return { values: entryValues, line, changelog, link: `${origin}${bookPath(item)}` };
  });
  const subject = fill(items.length === 1 && more === 0 ? texts.subjectOne : texts.subject, { ...whole, title: items[0]?.title ?? "" });
  const text = [
    fill(texts.intro[frequency], whole),
    "",
    ...entries.flatMap((entry) => [
      `- ${fill(entry.line, entry.values)}`,
      ...(entry.changelog ? [`  ${fill(texts.changelog, { changelog: entry.changelog })}`] : []),
      `  ${entry.link}`,
    ]),
    ...(more > 0 ? ["", `${fill(texts.more, whole)} ${homeLink}`] : []),
    "",
    fill(texts.why, whole),
    `${fill(texts.settings, whole)} ${settingsLink}`,
    `${fill(texts.unsubscribe, whole)} ${unsubscribeLink}`,
    "",
    fill(all.mail.signature, whole),
    "",
  ].join("\n");
  const html = [
    `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">`,
    `<p>${fillHtml(texts.intro[frequency], whole)}</p>`,
    `<ul>${entries
      .map(
        (entry) =>
          `<li><a href="${escapeHtml(entry.link)}">${fillHtml(entry.line, entry.values)}</a>${
            entry.changelog ? `<br><span style="white-space:pre-line">${fillHtml(texts.changelog, { changelog: entry.changelog })}</span>` : ""
          }</li>`,
      )
      .join("")}</ul>`,
    ...(more > 0 ? [`<p><a href="${escapeHtml(homeLink)}">${fillHtml(texts.more, whole)}</a></p>`] : []),
    `<p style="color:#555">${fillHtml(texts.why, whole)} <a href="${escapeHtml(settingsLink)}">${fillHtml(texts.settings, whole)}</a></p>`,
    `<p style="color:#555"><a href="${escapeHtml(unsubscribeLink)}">${fillHtml(texts.unsubscribe, whole)}</a></p>`,
    `<p>${fillHtml(all.mail.signature, whole)}</p>`,
    "</body></html>",
  ].join("\n");
  return {
    to,
    link: unsubscribeLink,
    subject,
    text,
    html,
    headers: { "List-Unsubscribe": `<${unsubscribeLink}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
