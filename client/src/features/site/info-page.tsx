import { BOOK_FILE_MAX_BYTES, COVER_MAX_BYTES } from "@shared/books";
import { INFO_PAGES, type InfoPage as InfoPageEntry, infoPageAt } from "@shared/info-pages";
import { DEFAULT_LANGUAGE, INFO_PAGE_TEXTS, type InterfaceLanguage, isInterfaceLanguage } from "@shared/languages";
import { MILESTONE_STEP } from "@shared/rewards";
import type { PublicConfig } from "@shared/wallet";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "wouter";
import { textLinkClassName } from "@/ui/styles";
import { toMegabytes } from "@/features/books";
import { useDocumentDescription, useDocumentTitle } from "@/lib/use-document-title";
import { useNumberFormat } from "@/lib/use-number-format";
import { useOpenPromotionEnd, usePublicConfig } from "@/lib/public-config";
import { TransparencyReport } from "@/features/site/transparency-report";

/** One language's texts of the info pages, fetched when one of them is first shown in it (docs/decisions/0070). */
const INFO_TEXTS: Record<InterfaceLanguage, () => Promise<{ default: object }>> = {
  en: () => import("@shared/locales/info-pages/en.json"),
  es: () => import("@shared/locales/info-pages/es.json"),
  fr: () => import("@shared/locales/info-pages/fr.json"),
};

type TextsState = "ready" | "loading" | "failed";

/**
 * Whether the info pages' texts of a language are there, fetching them when they are not: at the
 * first showing, and at a switch to another language while a page is shown. A failed fetch is tried
 * again at the next showing.
 */
function useInfoTexts(language: InterfaceLanguage): TextsState {
  const { i18n } = useTranslation();
  const [failedLanguage, setFailedLanguage] = useState<InterfaceLanguage | null>(null);
  const [, setLoadedLanguage] = useState<InterfaceLanguage | null>(null);
  // Asked of a text, not of the bundle: once these texts have been added in one language, i18next
  // counts the namespace among its own and, at a language switch, adds an empty bundle for it.
  const ready = i18n.exists("infoPages.navLabel", { lng: language, ns: INFO_PAGE_TEXTS });
  useEffect(() => {
    if (ready) return;
    let shown = true;
    INFO_TEXTS[language]().then(
      ({ default: texts }) => {
        i18n.addResourceBundle(language, INFO_PAGE_TEXTS, texts);
        if (shown) setLoadedLanguage(language);
      },
      () => shown && setFailedLanguage(language),
    );
    return () => {
      shown = false;
    };
  }, [i18n, language, ready]);
  return ready ? "ready" : failedLanguage === language ? "failed" : "loading";
}

interface InfoSection {
  heading: string;
  paragraphs?: string[];
  list?: string[];
  /** Paragraphs after the list. */
  after?: string[];
  /** Shown only while the first-book offer is open (the help page's rewards). */
  promotion?: string;
}

function Section({ id, section, promotionOpen }: { id: string; section: InfoSection; promotionOpen: boolean }) {
  const headingId = useId();
  return (
    <section id={id} aria-labelledby={headingId} className="scroll-mt-24">
      <h2 id={headingId} className="text-2xl font-semibold">
        {section.heading}
      </h2>
      {section.paragraphs?.map((paragraph) => (
        <p key={paragraph} className="mt-3">
          {paragraph}
        </p>
      ))}
      {section.list && (
        <ul className="mt-3 list-disc space-y-1.5 pl-6">
          {section.list.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
      {section.after?.map((paragraph) => (
        <p key={paragraph} className="mt-3">
          {paragraph}
        </p>
      ))}
      {promotionOpen && section.promotion && <p className="mt-3 rounded-md bg-accent-soft px-4 py-3">{section.promotion}</p>}
    </section>
  );
}

/** The contact page's address, from the server's CONTACT_EMAIL; never an invented one. */
function ContactAddress({ address, label, none }: { address: string | null; label: string; none: string }) {
  return (
    <p data-testid="contact-address" className="mt-6 text-lg">
      {address ? (
        <>
          <span className="font-semibold">{label}: </span>
          <a href={`mailto:${address}`} className={textLinkClassName}>
            {address}
          </a>
        </>
      ) : (
        <span className="text-ink-muted">{none}</span>
      )}
    </p>
  );
}

/**
 * Where notices and the authorities' questions go (docs/product.md#moderation): the LEGAL_CONTACT
 * setting's name and postal address, with CONTACT_EMAIL unless the page gives it already.
 */
function DesignatedContact({ legalContact, email, t }: { legalContact: string | null; email: string | null; t: (key: string) => string }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} data-testid="designated-contact" className="rounded-md border border-line p-4">
      <h2 id={headingId} className="text-lg font-semibold">
        {t("designatedContact")}
      </h2>
      {legalContact || email ? (
        <address className="mt-2 not-italic">
          {legalContact && <p className="whitespace-pre-line">{legalContact}</p>}
          {email && (
            <a href={`mailto:${email}`} className={textLinkClassName}>
              {email}
            </a>
          )}
        </address>
      ) : (
        <p className="mt-2 text-ink-muted">{t("designatedContactNone")}</p>
      )}
    </section>
  );
}

function InfoPageContent({ page, language, config }: { page: InfoPageEntry; language: InterfaceLanguage; config: PublicConfig }) {
  const { i18n } = useTranslation();
  const t = i18n.getFixedT(language, INFO_PAGE_TEXTS, "infoPages");
  const format = useNumberFormat();
  const promotionEnd = useOpenPromotionEnd();
  const title = t(`${page.key}.title`);
  useDocumentTitle(title);
  useDocumentDescription(t(`${page.key}.description`));

  // A link to a section (/help#counting) arrives before these texts do: its place is known once they are
  // drawn, and after the app has put a newly shown screen at its top (App's effect runs after this one).
  useEffect(() => {
    if (!window.location.hash) return;
    const frame = requestAnimationFrame(() => document.getElementById(decodeURIComponent(window.location.hash.slice(1)))?.scrollIntoView());
    return () => cancelAnimationFrame(frame);
  }, [page.key]);

  // The texts state the rules with the numbers in force (the per-address cap, the offer's end).
  const values = {
    step: MILESTONE_STEP,
    twice: 2 * MILESTONE_STEP,
    bookMb: toMegabytes(BOOK_FILE_MAX_BYTES),
    coverMb: toMegabytes(COVER_MAX_BYTES),
    perAddress: config.rewards.countedPerAddressPerDay,
    date: promotionEnd ? format.longDate(promotionEnd) : "",
  };
  const sections = t(`${page.key}.sections`, { returnObjects: true, ...values }) as Record<string, InfoSection>;

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-12 sm:py-16 lg:grid-cols-[minmax(0,1fr)_14rem]">
      {/* min-w-0: a wide table (the transparency report's) scrolls in its own box instead of widening the page. */}
      <article data-testid={`info-page-${page.key}`} className={page.key === "transparency" ? "min-w-0" : "max-w-prose min-w-0"}>
        <h1 className="text-3xl font-semibold sm:text-4xl">{title}</h1>
        <p className="mt-3 max-w-prose text-lg text-ink-muted">{t(`${page.key}.intro`)}</p>
        {page.key === "contact" && <ContactAddress address={config.contactEmail} label={t("contact.addressLabel")} none={t("contact.noAddress")} />}
        {page.key === "transparency" && (
          <div className="mt-10">
            <TransparencyReport />
          </div>
        )}
        <div className="mt-10 max-w-prose space-y-10 leading-relaxed">
          {Object.entries(sections).map(([id, section]) => (
            <Section key={id} id={id} section={section} promotionOpen={promotionEnd !== null} />
          ))}
          {page.key === "terms" && <DesignatedContact legalContact={config.legalContact} email={config.contactEmail} t={t} />}
          {page.key === "contact" && config.legalContact && <DesignatedContact legalContact={config.legalContact} email={null} t={t} />}
        </div>
      </article>
      <nav aria-label={t("navLabel")} className="max-lg:order-first lg:border-l lg:border-line lg:pl-6">
        <ul className="flex flex-wrap gap-x-5 gap-y-2 lg:flex-col">
          {INFO_PAGES.map(({ key, path }) => (
            <li key={key}>
              <Link
                href={path}
                aria-current={key === page.key ? "page" : undefined}
                className="rounded text-ink-muted underline-offset-4 hover:text-accent hover:underline aria-[current=page]:font-semibold aria-[current=page]:text-ink"
              >
                {t(`${key}.title`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

/**
 * The pages that explain Plume (docs/product.md#info-pages): how it works, the author guide, the terms,
 * privacy, contact and the transparency report's figures. One screen for the six, chosen by the address; their long texts come in a
 * namespace of their own, fetched here, so no other screen carries them.
 */
export function InfoPage() {
  const [location] = useLocation();
  const { t, i18n } = useTranslation();
  const language = isInterfaceLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
  const texts = useInfoTexts(language);
  const { data: config, isError: configFailed } = usePublicConfig();
  // The router shows this screen at the info pages' paths only.
  const page = infoPageAt(location) ?? INFO_PAGES[0];
  if (texts === "ready" && config) return <InfoPageContent page={page} language={language} config={config} />;
  const failed = texts === "failed" || configFailed;
  return (
    <p role={failed ? "alert" : "status"} className="mx-auto max-w-6xl px-4 py-16 text-ink-muted">
      {t(failed ? "errors.unexpected" : "common.loading")}
    </p>
  );
}
