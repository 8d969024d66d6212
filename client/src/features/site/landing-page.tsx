import { FEATURED_BOOK_COUNT } from "@shared/first-screen-reads";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { BookLanguageNote, BookShelf, useBookList, usePublicStats } from "@/features/books";
import { useBookLanguageChoice } from "@/lib/book-language-choice";
import { FooterColumns } from "@/features/site/footer-columns";
import { buttonClassName } from "@/ui/styles";
import { useDocumentTitle } from "@/lib/use-document-title";
import { useNumberFormat } from "@/lib/use-number-format";
import { useOpenPromotionEnd } from "@/lib/public-config";

const FEATURED_COLUMNS = "sm:grid-cols-2";

/** Made-up figures for the illustration; 1,248 downloads at 1 PME per 20 is 62 PME. */
const SAMPLE = {
  downloads: 1248,
  earnedPme: 62,
  books: 3,
  monthlyDownloads: [38, 52, 47, 70, 64, 91, 88, 103, 97, 126, 141, 158],
};

const sectionClassName = "mx-auto w-full max-w-6xl px-4";

function Hero() {
  const { t } = useTranslation();
  return (
    <div className="grid items-center gap-12 lg:grid-cols-[minmax(0,1.1fr)_minmax(0,1fr)]">
      <div>
        <p className="text-sm font-semibold tracking-wide text-accent uppercase">{t("landing.eyebrow")}</p>
        <h1 className="mt-3 text-4xl leading-tight font-semibold sm:text-5xl">{t("landing.title")}</h1>
        <p className="mt-5 max-w-prose text-lg leading-relaxed text-ink-muted">{t("landing.subtitle")}</p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link href="/register" className={buttonClassName("primary", "min-h-12 px-6 text-base sm:px-6")}>
            {t("landing.uploadCta")}
          </Link>
          <Link href="/catalog" className={buttonClassName("secondary", "min-h-12 px-6 text-base sm:px-6")}>
            {t("landing.browseCta")}
          </Link>
        </div>
      </div>
      <DashboardMockup />
    </div>
  );
}

function MockupStat({ label, value, className = "" }: { label: string; value: string; className?: string }) {
  return (
    <div className={`rounded-lg border border-line bg-paper px-3 py-2.5 ${className}`}>
      <p className="text-xs text-ink-muted">{label}</p>
      <p className="mt-0.5 font-serif text-xl font-semibold sm:text-2xl">{value}</p>
    </div>
  );
}

/** A drawing of the author dashboard with sample numbers: one image to assistive technology, named as an example. */
function DashboardMockup() {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const highest = Math.max(...SAMPLE.monthlyDownloads);
  return (
    <div role="img" aria-label={t("landing.mockup.label")} className="relative isolate mx-auto w-full max-w-md lg:max-w-none">
      <div aria-hidden="true" className="absolute -inset-3 -z-10 rotate-2 rounded-3xl bg-accent-soft" />
      <div className="rounded-2xl border border-line bg-surface p-5 shadow-xl sm:p-6">
        <div className="flex items-center justify-between gap-3">
          <p className="font-serif text-lg font-semibold">{t("landing.mockup.title")}</p>
          <span className="rounded-full border border-line px-2.5 py-0.5 text-xs font-medium text-ink-muted">
            {t("landing.mockup.example")}
          </span>
        </div>
        <div className="mt-4 grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-3">
          <MockupStat label={t("landing.mockup.downloads")} value={format.integer(SAMPLE.downloads)} className="col-span-2 sm:col-span-1" />
          <MockupStat label={t("landing.mockup.earned")} value={`${format.integer(SAMPLE.earnedPme)} PME`} />
          <MockupStat label={t("landing.mockup.books")} value={format.integer(SAMPLE.books)} />
        </div>
        <p className="mt-5 text-xs font-medium text-ink-muted">{t("landing.mockup.monthly")}</p>
        <div className="mt-2 flex h-24 items-end gap-1.5">
          {SAMPLE.monthlyDownloads.map((downloads, month) => (
            <div key={month} className="flex-1 rounded-t-sm bg-accent/80" style={{ height: `${(downloads / highest) * 100}%` }} />
          ))}
        </div>
        <div className="mt-5 flex items-center justify-between gap-3 rounded-lg border border-line px-3 py-2.5 text-sm">
          <span className="flex items-center gap-2">
            <span className="size-2.5 rounded-full bg-emerald-600" />
            {t("landing.mockup.payment")}
          </span>
          <span className="font-semibold">+1 PME</span>
        </div>
      </div>
    </div>
  );
}

function PublicStats() {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const { data: stats } = usePublicStats();
  const figures = [
    { label: t("landing.stats.books"), value: stats?.totalBooks },
    { label: t("landing.stats.authors"), value: stats?.totalAuthors },
    { label: t("landing.stats.downloads"), value: stats?.totalDownloads },
  ];
  return (
    <section aria-labelledby="landing-stats" className="border-y border-line bg-surface">
      <div className={`${sectionClassName} py-10`}>
        <h2 id="landing-stats" className="sr-only">
          {t("landing.stats.title")}
        </h2>
        <dl className="grid gap-6 text-center sm:grid-cols-3">
          {figures.map(({ label, value }) => (
            <div key={label} className="flex flex-col-reverse gap-1">
              <dt className="text-sm text-ink-muted">{label}</dt>
              <dd data-testid="public-stat" className="font-serif text-4xl font-semibold text-accent">
                {value === undefined ? "—" : format.count(value)}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}

function HowItWorks() {
  const { t } = useTranslation();
  const steps = [
    { title: t("landing.steps.upload.title"), text: t("landing.steps.upload.text") },
    { title: t("landing.steps.download.title"), text: t("landing.steps.download.text") },
    { title: t("landing.steps.earn.title"), text: t("landing.steps.earn.text") },
  ];
  const format = useNumberFormat();
  const promotionEnd = useOpenPromotionEnd();
  return (
    <section id="how-it-works" aria-labelledby="how-it-works-title" className={`${sectionClassName} scroll-mt-4 py-16 sm:py-20`}>
      <h2 id="how-it-works-title" className="text-3xl font-semibold sm:text-4xl">
        {t("landing.steps.title")}
      </h2>
      <p className="mt-3 max-w-prose text-lg text-ink-muted">{t("landing.steps.subtitle")}</p>
      <ol className="mt-10 grid gap-6 md:grid-cols-3">
        {steps.map(({ title, text }, index) => (
          <li key={title} className="rounded-xl border border-line bg-surface p-6 shadow-sm">
            <span aria-hidden="true" className="flex size-10 items-center justify-center rounded-full bg-accent font-serif text-lg text-white">
              {index + 1}
            </span>
            <h3 className="mt-4 text-xl font-semibold">{title}</h3>
            <p className="mt-2 leading-relaxed text-ink-muted">{text}</p>
          </li>
        ))}
      </ol>
      {promotionEnd && (
        <p data-testid="promotion" className="mt-6 rounded-xl border border-amber-300 bg-amber-50 px-5 py-4 text-amber-950">
          <strong className="font-semibold">{t("landing.promo.title")}</strong> {t("landing.promo.text", { date: format.longDate(promotionEnd) })}
        </p>
      )}
    </section>
  );
}

function FeaturedBooks() {
  const { t } = useTranslation();
  // In the book language the reader chose in the catalog, as the server preloaded them (server/http/first-screen-reads.ts).
  const featured = useBookList({ language: useBookLanguageChoice() }, FEATURED_BOOK_COUNT);
  return (
    <section aria-labelledby="featured-title" className="border-t border-line bg-surface">
      <div className={`${sectionClassName} py-16 sm:py-20`}>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h2 id="featured-title" className="text-3xl font-semibold sm:text-4xl">
              {t("landing.featured.title")}
            </h2>
            <p className="mt-3 max-w-prose text-lg text-ink-muted">{t("landing.featured.subtitle")}</p>
            <BookLanguageNote className="mt-1" />
          </div>
          <Link href="/catalog" className={buttonClassName("secondary")}>
            {t("landing.featured.viewMore")}
          </Link>
        </div>
        <div className="mt-10">
          <BookShelf books={featured} count={FEATURED_BOOK_COUNT} columnsClassName={FEATURED_COLUMNS} emptyText={t("landing.featured.empty")} />
        </div>
      </div>
    </section>
  );
}

export { FooterColumns };

export function LandingPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("landing.title"));
  return (
    <>
      {/* The tilted backdrop of the illustration may reach past a phone's edge: clip it rather than scroll sideways. */}
      <section className={`${sectionClassName} overflow-x-clip py-14 sm:py-20`}>
        <Hero />
      </section>
      <PublicStats />
      <HowItWorks />
      <FeaturedBooks />
    </>
  );
}
