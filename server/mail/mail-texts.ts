import { ALL_TEXTS } from "../../shared/locales/all-texts.ts";
import { DEFAULT_LANGUAGE, type InterfaceLanguage, isInterfaceLanguage } from "../../shared/languages.ts";
import { type ModerationDecision, isRestricting } from "../../shared/moderation.ts";
import { type AppealKind, appealKindFor } from "../../shared/appeals.ts";
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
const languageOf = (language: string): InterfaceLanguage => (isInterfaceLanguage(language) ? language : DEFAULT_LANGUAGE);

/**
 * Fills a text's {{names}}, as typed (plain text) or escaped (HTML, where every value is whatever someone
 * typed); the values named in `links` are addresses, a link in HTML.
 */
function filler(values: Record<string, string>, links: readonly string[] = []) {
  const fill = (template: string, render: (value: string, name: string) => string) =>
    template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? render(values[name]!, name) : whole));
  const htmlValue = (value: string, name: string) => (links.includes(name) ? `<a href="${escapeHtml(value)}">${escapeHtml(value)}</a>` : escapeHtml(value));
  return { plain: (template: string) => fill(template, (value) => value), html: (template: string) => fill(escapeHtml(template), htmlValue) };
}

export function composeLinkMail({ kind, to, language, link, values }: LinkMail): MailMessage {
  const lang = languageOf(language);
  const mailTexts = ALL_TEXTS[lang].mail;
  const texts = mailTexts.links[kind] as LinkMailTexts;
  const { plain, html } = filler(values);
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

/** One payment of a notice: what it rewards and the transaction that carried it. */
export interface NoticedPayment {
  kind: "milestone" | "first-book-bonus";
  amount: string;
  /** The downloads a milestone stands for; null for a first-book bonus. */
  downloads: number | null;
  bookTitle: string;
  /** The transaction's page on the chain's explorer, else its hash. */
  transaction: string;
}

export interface PaymentMail {
  to: string;
  language: string;
  values: { productName: string; name: string; wallet: string };
  payments: NoticedPayment[];
  /** The author's dashboard, where every payment is listed. */
  link: string;
  settingsLink: string;
}

/**
 * "PME sent to your wallet" (docs/product.md#settings): one message for the payments of one author
 * completed together, each on its line with its transaction, and how to turn the notices off.
 */
export function composePaymentMail({ to, language, values, payments, link, settingsLink }: PaymentMail): MailMessage {
  const lang = languageOf(language);
  const mailTexts = ALL_TEXTS[lang].mail;
  const texts = mailTexts.paymentCompleted;
  const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
  const pme = (amount: string | number) => number.format(Number(amount));
  const total = pme(payments.reduce((sum, payment) => sum + Number(payment.amount), 0));
  const whole = filler({ ...values, amount: total, settingsLink }, ["settingsLink"]);
  const lines = payments.map((payment) => {
    const line = filler({ amount: pme(payment.amount), downloads: String(payment.downloads ?? ""), bookTitle: payment.bookTitle, transaction: payment.transaction });
    const what = payment.kind === "milestone" ? texts.milestone : texts.firstBookBonus;
    return { plain: [line.plain(what), line.plain(texts.transaction)], html: [line.html(what), line.html(texts.transaction)] };
  });
  return {
    to,
    link,
    subject: whole.plain(texts.subject),
    text: [
      whole.plain(texts.intro),
      "",
      ...lines.flatMap((line) => [`- ${line.plain[0]}`, `  ${line.plain[1]}`]),
      "",
      `${whole.plain(texts.action)}: ${link}`,
      "",
      whole.plain(texts.optOut),
      "",
      whole.plain(mailTexts.signature),
      "",
    ].join("\n"),
    html: [
      `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">`,
      `<p>${whole.html(texts.intro)}</p>`,
      `<ul>${lines.map((line) => `<li>${line.html[0]}<br><span style="word-break:break-all">${line.html[1]}</span></li>`).join("")}</ul>`,
      `<p><a href="${escapeHtml(link)}">${whole.html(texts.action)}</a></p>`,
      `<p style="color:#555">${whole.html(texts.optOut)}</p>`,
      `<p>${whole.html(mailTexts.signature)}</p>`,
      "</body></html>",
    ].join("\n"),
  };
}

export interface DecisionMail {
  to: string;
  language: string;
  values: { productName: string; name: string; contactEmail: string };
  decision: Pick<ModerationDecision, "action" | "bookTitle" | "ground" | "basis" | "facts"> & {
    /** The PME a removal cancelled, as a decimal string; absent or "0.00" for none. */
    cancelledAmount?: string;
    /** The PME a restore sent back to the queue after the removal it lifted; absent or "0.00" for none. */
    reinstatedAmount?: string;
  };
  /** The author's dashboard, where every statement is kept. */
  link: string;
}

/**
 * A moderation decision's statement of reasons (docs/product.md#moderation), in the language of the
 * author or the review's writer:
 * what was decided, on what ground, from what, the facts as the admin wrote them, and — for a
 * restriction — how long it lasts, what becomes of the book's payments (held while hidden, cancelled
 * by a removal when it cancelled any: docs/decisions/0090), and how to contest it (EU Digital
 * Services Act, Art. 17, also when payments are withheld).
 */
export function composeDecisionMail({ to, language, values, decision, link }: DecisionMail): MailMessage {
  const allTexts = ALL_TEXTS[languageOf(language)];
  const texts = allTexts.mail.moderationDecision;
  const restricting = isRestricting(decision.action);
  // The PME this decision cancelled (a removal) or owes again (a restore lifting one), when any.
  const moved = Number(decision.action === "restore" ? (decision.reinstatedAmount ?? 0) : (decision.cancelledAmount ?? 0));
  const payments =
    decision.action === "hide" || decision.action === "suspend"
      ? texts.payments[decision.action]
      : (decision.action === "remove" || decision.action === "restore") && moved > 0
        ? texts.payments[decision.action]
        : null;
  return paragraphMail({
    to,
    language,
    values: {
      ...values,
      amount: moved > 0 ? new Intl.NumberFormat(languageOf(language), { maximumFractionDigits: 2 }).format(moved) : "",
      bookTitle: decision.bookTitle ?? "",
      ground: decision.ground ? allTexts.moderation.grounds[decision.ground] : "",
      basis: allTexts.moderation.bases[decision.basis],
      facts: decision.facts,
    },
    subject: texts.subject[decision.action],
    paragraphs: [
      texts.intro[decision.action],
      ...(restricting ? [texts.statement, texts.ground] : []),
      texts.basis,
      texts.facts,
      ...(decision.action === "hide" ? [texts.duration] : []),
      ...(payments ? [payments] : []),
      // A book's or a review's restriction is contested from the dashboard; a suspended account cannot sign in, so it writes.
      ...(decision.action === "suspend" ? [texts.contest] : []),
      ...(restricting && decision.action !== "suspend" ? [texts.contestBook] : []),
      ...(restricting && decision.action !== "suspend" && appealKindFor(decision.ground) === "counter-notice" ? [texts.counterNotice] : []),
    ],
    action: { label: texts.action, link },
  });
}

export interface NoticeReceivedMail {
  to: string;
  language: string;
  values: { productName: string; name: string; subject: string; reference: string };
}

/** The acknowledgement of a notice (docs/product.md#moderation): its reference, and what comes next. */
export function composeNoticeReceivedMail({ to, language, values }: NoticeReceivedMail): MailMessage {
  const texts = ALL_TEXTS[languageOf(language)].mail.noticeReceived;
  return paragraphMail({ to, language, values, subject: texts.subject, paragraphs: [texts.intro, texts.next, texts.noReply] });
}

/** A message of plain paragraphs, an optional link to act on, and the signature; each text's {{names}} filled from `values`. */
function paragraphMail({
  to,
  language,
  values,
  subject,
  paragraphs,
  action,
}: {
  to: string;
  language: string;
  values: Record<string, string>;
  subject: string;
  paragraphs: string[];
  action?: { label: string; link: string };
}): MailMessage {
  const lang = languageOf(language);
  const { plain, html } = filler(values);
  const signature = ALL_TEXTS[lang].mail.signature;
  return {
    to,
    ...(action ? { link: action.link } : {}),
    subject: plain(subject),
    text: [...paragraphs.flatMap((paragraph) => [plain(paragraph), ""]), ...(action ? [`${plain(action.label)}: ${action.link}`, ""] : []), plain(signature), ""].join("\n"),
    html: [
      `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">`,
      ...paragraphs.map((paragraph) => `<p style="white-space:pre-line">${html(paragraph)}</p>`),
      ...(action ? [`<p><a href="${escapeHtml(action.link)}">${html(action.label)}</a></p>`] : []),
      `<p>${html(signature)}</p>`,
      "</body></html>",
    ].join("\n"),
  };
}

export interface BookToEReaderMail {
  /** The reader's e-reader address. */
  to: string;
  /** The reader's `users.language`. */
  language: string;
  values: { productName: string; title: string };
  /** The author as the book page names them; null for an author without a name to show. */
  author: string | null;
  /** The book's page. */
  link: string;
}

/**
 * A book mailed to the reader's e-reader (docs/product.md#send-to-e-reader), in the reader's language:
 * the book itself is attached by the caller. A Kindle reads the subject as nothing but a title, so it
 * names the book; the text says who asked, for an owner who did not.
 */
export function composeBookToEReaderMail({ to, language, values, author, link }: BookToEReaderMail): MailMessage {
  const all = ALL_TEXTS[languageOf(language)];
  const texts = all.mail.bookToEReader;
  const filled = { ...values, author: author ?? all.book.anonymousAuthor };
  return paragraphMail({ to, language, values: filled, subject: texts.subject, paragraphs: [texts.intro, texts.notYou], action: { label: texts.action, link } });
}

/**
 * What came of a notice: the book removed, the account suspended, the review removed, nothing
 * restricted, or the review gone because its writer deleted it before anyone decided.
 */
export type NoticeOutcomeKind = "remove" | "suspend" | "dismissed" | "remove-review" | "writer-deleted";

export interface NoticeOutcomeMail {
  to: string;
  language: string;
  values: { productName: string; name: string; subject: string; reference: string; facts: string; contactEmail: string };
  outcome: NoticeOutcomeKind;
}

/**
 * The decision on a notice, told to its sender (docs/product.md#moderation; EU Digital Services Act
 * Art. 16(5)). A review its writer deleted was decided by nobody: no reasons, nothing to contest.
 */
export function composeNoticeOutcomeMail({ to, language, values, outcome }: NoticeOutcomeMail): MailMessage {
  const texts = ALL_TEXTS[languageOf(language)].mail.noticeOutcome;
  if (outcome === "writer-deleted") return paragraphMail({ to, language, values, subject: texts.writerDeleted.subject, paragraphs: [texts.writerDeleted.intro] });
  return paragraphMail({ to, language, values, subject: texts.subject, paragraphs: [texts.intro, texts.outcome[outcome], texts.facts, texts.disagree] });
}

/** Whether a decision contested, or a counter-notice forwarded, is about a book or about a review (docs/product.md#appeals). */
export type ContestedSubject = "book" | "review";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

export interface AppealReceivedMail {
  to: string;
  language: string;
  kind: AppealKind;
  values: { productName: string; name: string; bookTitle: string; reference: string };
}

/** The acknowledgement of an author's appeal or counter-notice (docs/product.md#appeals). */
export function composeAppealReceivedMail({ to, language, kind, values }: AppealReceivedMail): MailMessage {
  const texts = ALL_TEXTS[languageOf(language)].mail.appealReceived;
  return paragraphMail({
    to,
    language,
    values: { ...values, kindName: texts.kindName[kind] },
    subject: texts.subject[kind],
    paragraphs: [texts.intro, ...(kind === "counter-notice" ? [texts.forwarded] : [])],
  });
}

export interface CounterNoticeForwardedMail {
  to: string;
  language: string;
  about: ContestedSubject;
  values: { productName: string; name: string; subject: string; reference: string; legalName: string; postalAddress: string; phone: string; statement: string; contactEmail: string };
}

/** A counter-notice, forwarded to the sender of a copyright notice it answers (docs/product.md#appeals; DMCA §512(g)(2)(B)). */
export function composeCounterNoticeForwardedMail({ to, language, about, values }: CounterNoticeForwardedMail): MailMessage {
  const texts = ALL_TEXTS[languageOf(language)].mail.counterNoticeForwarded;
  const [intro, next] = about === "review" ? [texts.introReview, texts.nextReview] : [texts.intro, texts.next];
  return paragraphMail({ to, language, values, subject: texts.subject, paragraphs: [intro, texts.identity, texts.statement, next] });
}

export interface AppealOutcomeMail {
  to: string;
  language: string;
  outcome: "granted" | "rejected";
  about: ContestedSubject;
  values: { productName: string; name: string; bookTitle: string; reference: string; facts: string };
  link: string;
}

/** The admin's answer to an appeal, told to its author or the review's writer (docs/product.md#appeals; EU Digital Services Act Art. 20(4)). */
export function composeAppealOutcomeMail({ to, language, outcome, about, values, link }: AppealOutcomeMail): MailMessage {
  const texts = ALL_TEXTS[languageOf(language)].mail.appealOutcome;
  // What a granted appeal brought back: the book listed again, or the review shown again.
  const intro = outcome === "granted" && about === "review" ? texts.intro.grantedReview : texts.intro[outcome];
  return paragraphMail({
    to,
    language,
    values,
    subject: texts.subject[outcome],
    paragraphs: [intro, texts.facts, ...(outcome === "rejected" ? [texts.further] : [])],
    action: { label: texts.action, link },
  });
}

export interface CounterNoticeOutcomeMail {
  to: string;
  language: string;
  about: ContestedSubject;
  values: { productName: string; name: string; subject: string; reference: string; facts: string; contactEmail: string };
}

/** A granted counter-notice, told to the sender of a copyright notice it answered: the book is available again, or the review shown again. */
export function composeCounterNoticeOutcomeMail({ to, language, about, values }: CounterNoticeOutcomeMail): MailMessage {
  const texts = ALL_TEXTS[languageOf(language)].mail.counterNoticeOutcome;
  const [subject, intro] = about === "review" ? [texts.subjectReview, texts.introReview] : [texts.subject, texts.intro];
  return paragraphMail({ to, language, values, subject, paragraphs: [intro, texts.facts, texts.disagree] });
}

/**
 * The facts of an upload hidden as a near copy (docs/decisions/0091), in the author's language: they
 * are kept with the decision, which the mail and the dashboard show as written. The original is named
 * only while the public can see it.
 */
export function composeCopyFacts(language: string, { similarity, originalTitle }: { similarity: number; originalTitle: string | null }): string {
  const texts = ALL_TEXTS[languageOf(language)].moderation.automatedCopy;
  const { plain } = filler({ title: originalTitle ?? "" });
  const original = originalTitle === null ? texts.unnamedOriginal : plain(texts.namedOriginal);
  return filler({ similarity: String(Math.round(similarity * 100)), original }).plain(texts.facts);
}
