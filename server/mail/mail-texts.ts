import { ALL_TEXTS } from "../../shared/locales/all-texts.ts";
import { DEFAULT_LANGUAGE, type InterfaceLanguage, isInterfaceLanguage } from "../../shared/languages.ts";
import type { MailMessage } from "./mailer.ts";

/** The messages that carry one link; each has its texts under `mail.<kind>` in the locales. */
export type LinkMailKind = keyof (typeof ALL_TEXTS)["en"]["mail"]["links"];

interface LinkMailTexts {
  subject: string;
  intro: string;
  action: string;
  expiry: string;
  ignore: string;
}

export interface LinkMail {
  kind: LinkMailKind;
  to: string;
  /** The account's `users.language`; anything else falls back to English. */
  language: string;
  link: string;
  /** Values the texts name: {{productName}}, {{name}}, {{email}}… */
  values: Record<string, string>;
}

/**
 * A message with one link, in plain text and HTML. Every value is escaped in the HTML (a name is
 * whatever the person typed); no message ever carries a password (docs/product.md#accounts).
 */
export function composeLinkMail({ kind, to, language, link, values }: LinkMail): MailMessage {
  const lang: InterfaceLanguage = isInterfaceLanguage(language) ? language : DEFAULT_LANGUAGE;
  const mailTexts = ALL_TEXTS[lang].mail;
  const texts = mailTexts.links[kind] as LinkMailTexts;
  const fill = (template: string, escape: (value: string) => string) =>
    template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? escape(values[name]!) : whole));
  const plain = (template: string) => fill(template, (value) => value);
  const html = (template: string) => fill(escapeHtml(template), escapeHtml);
  const paragraphs = [texts.intro, texts.expiry, texts.ignore];
  return {
    to,
    link,
    subject: plain(texts.subject),
    text: [plain(texts.intro), "", link, "", plain(texts.expiry), plain(texts.ignore), "", plain(mailTexts.signature), ""].join("\n"),
    html: [
      `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">`,
      `<p>${html(paragraphs[0]!)}</p>`,
      `<p><a href="${escapeHtml(link)}">${html(texts.action)}</a></p>`,
      `<p style="word-break:break-all">${escapeHtml(link)}</p>`,
      `<p>${html(paragraphs[1]!)}</p>`,
      `<p>${html(paragraphs[2]!)}</p>`,
      `<p>${html(mailTexts.signature)}</p>`,
      "</body></html>",
    ].join("\n"),
  };
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}
