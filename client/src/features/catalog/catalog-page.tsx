import { BOOK_LANGUAGES, type BookLanguage, CATALOG_SORTS, type CatalogSort, SEARCH_MAX } from "@shared/books";
import { type CatalogFilters, catalogQueryString, isBookLanguage, readCatalogFilters, shownCatalogFilters } from "@shared/catalog-address";
import { GENRE_KEYS, type GenreKey } from "@shared/genres";
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useSearch } from "wouter";
import { type BookFilters, BookGrid, BookGridSkeleton, FULL_CARD_COLUMNS, useCatalogPages } from "@/features/books";
import { PageFrame } from "@/ui/page-frame";
import { EmptyState } from "@/ui/empty-state";
import { SearchIcon, Spinner } from "@/ui/icons";
import { SelectField } from "@/ui/select-field";
import { buttonClassName } from "@/ui/styles";
import { useNumberFormat } from "@/lib/use-number-format";
import { takeCatalogSearchFocus } from "@/lib/catalog-search-focus";
import { chooseBookLanguage, useBookLanguageChoice } from "@/lib/book-language-choice";
import { compareLabels } from "@/lib/label-order";
import type { Tag } from "@shared/series-and-tags";
import { useQuery } from "@tanstack/react-query";

const SKELETON_CARDS = 8;
const ALL_GENRES = "all";
const ALL_LANGUAGES = "all";
/** With a search and no chosen order the server ranks by relevance, so "relevance" means sending no sort. */
const RELEVANCE = "relevance";

interface CatalogResultsProps {
  filters: BookFilters;
  isFiltered: boolean;
  onClearFilters: () => void;
  /** Told what the results come to, for the page's live region: empty while they load. */
  onOutcome: (announcement: string) => void;
}

/** The books for one set of filters; it starts again from the first page whenever it is remounted. */
function CatalogResults({ filters, isFiltered, onClearFilters, onOutcome }: CatalogResultsProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const [pageCount, setPageCount] = useState(1);
  const catalog = useCatalogPages(filters, pageCount);
  const results = useRef<HTMLDivElement>(null);
  /** The first card a "load more" brings, to take the keyboard's focus should the button lose it. */
  const firstNewCard = useRef<number | null>(null);

  const loadMore = () => {
    firstNewCard.current = catalog.books.length;
    setPageCount((count) => count + 1);
  };

  // The button goes once the last page is in (and is disabled while a page loads): the focus would fall to
  // the page's start. It goes to the first new book's title instead, where reading goes on.
  useEffect(() => {
    const index = firstNewCard.current;
    if (catalog.isLoadingMore || index === null) return;
    firstNewCard.current = null;
    if (document.activeElement !== document.body && document.activeElement !== null) return;
    results.current?.querySelectorAll<HTMLElement>('[data-testid="book-card"]')[index]?.querySelector<HTMLElement>('[data-testid="book-link"]')?.focus();
  }, [catalog.isLoadingMore, catalog.books.length]);

  useEffect(() => {
    if (catalog.error) console.error(t("catalog.fetchError"), catalog.error);
  }, [catalog.error, t]);

  const bookCount = catalog.books.length;
  const hasFailed = !!catalog.error;
  // Worded in the effect, after the cards are drawn: its plural makes the page's first Intl.PluralRules,
  // and the live region needs it no sooner (docs/decisions/0086).
  useEffect(() => {
    const outcome = catalog.isLoadingFirstPage
      ? ""
      : bookCount > 0
        ? t("catalog.resultsShown", { count: bookCount, formatted: format.integer(bookCount) })
        : t(hasFailed ? "catalog.fetchError" : "catalog.noBooks");
    onOutcome(outcome);
  }, [catalog.isLoadingFirstPage, bookCount, hasFailed, t, format, onOutcome]);

  if (catalog.isLoadingFirstPage) {
    return <BookGridSkeleton count={SKELETON_CARDS} variant="full" columnsClassName={FULL_CARD_COLUMNS} />;
  }

  const retryButton = (
    <button type="button" onClick={catalog.retry} className={buttonClassName("secondary")}>
      {t("catalog.retry")}
    </button>
  );

  if (catalog.books.length === 0) {
    if (catalog.error) return <EmptyState title={t("catalog.noBooks")} hint={t("catalog.fetchError")} action={retryButton} />;
    return isFiltered ? (
      <EmptyState
        title={t("catalog.noBooks")}
        hint={t("catalog.adjustFilters")}
        action={
          <button type="button" onClick={onClearFilters} className={buttonClassName("secondary")}>
            {t("catalog.clearFilters")}
          </button>
        }
      />
    ) : (
      <EmptyState
        title={t("catalog.noBooks")}
        hint={t("catalog.beFirst")}
        action={
          <Link href="/upload" className={buttonClassName("primary")}>
            {t("catalog.publishLink")}
          </Link>
        }
      />
    );
  }

  return (
    <div ref={results}>
      <BookGrid books={catalog.books} variant="full" columnsClassName={FULL_CARD_COLUMNS} headingLevel={2} />
      <div className="mt-10 flex flex-col items-center gap-3">
        {catalog.error ? (
          <>
            <p role="alert" className="text-danger">
              {t("catalog.fetchError")}
            </p>
            {retryButton}
          </>
        ) : (
          (catalog.hasMore || catalog.isLoadingMore) && (
            <button
              type="button"
              data-testid="load-more"
              disabled={catalog.isLoadingMore}
              aria-busy={catalog.isLoadingMore}
              onClick={loadMore}
              className={buttonClassName("secondary", "min-w-40")}
            >
              {catalog.isLoadingMore && <Spinner />}
              {t(catalog.isLoadingMore ? "common.loading" : "catalog.loadMore")}
            </button>
          )
        )}
      </div>
    </div>
  );
}

function useGenreOptions() {
  const { t } = useTranslation();
  // `t` is another function once the language changes: the labels follow it.
  return useMemo(() => {
    const genres = GENRE_KEYS.map((key) => ({ value: key, label: t(`genres.${key}`) })).sort((a, b) => compareLabels(a.label, b.label));
    return [{ value: ALL_GENRES, label: t("genres.all") }, ...genres];
  }, [t]);
}

/** Every language, then the book languages by their own names (English, Español, Français), in that order whatever the interface's. */
function useLanguageOptions() {
  const { t } = useTranslation();
  return [{ value: ALL_LANGUAGES, label: t("catalog.allLanguages") }, ...BOOK_LANGUAGES.map((language) => ({ value: language, label: t(`languages.${language}`), lang: language }))];
}

/** The tag the catalog shows the books of (docs/product.md#series-and-tags), named as first written, and the way back to every book. */
function TagFilter({ slug, onRemove }: { slug: string; onRemove: () => void }) {
  const { t } = useTranslation();
  const { data: tag } = useQuery<Tag>({ queryKey: [`/api/tags/${encodeURIComponent(slug)}`], retry: false });
  const name = tag?.name ?? slug;
  return (
    <div data-testid="catalog-tag-filter" className="mt-4 flex flex-wrap items-center gap-3">
      <h2 className="text-lg font-semibold">{t("catalog.taggedHeading", { tag: name })}</h2>
      <button type="button" onClick={onRemove} className={buttonClassName("secondary", "min-h-11")}>
        {t("catalog.removeTag", { tag: name })}
      </button>
    </div>
  );
}

export function CatalogPage() {
  const { t, i18n } = useTranslation();
  const searchInputId = useId();
  const [path, navigate] = useLocation();
  const urlQuery = useSearch();
  // The address is the source of the filters: a link, a reload, back and forward all show what it names;
  // where it names no book language, the one the reader chose last (docs/product.md#catalog-by-language).
  const chosenLanguage = useBookLanguageChoice();
  const shown = shownCatalogFilters(urlQuery, chosenLanguage);
  const rememberedNotInAddress = shown.language !== undefined && readCatalogFilters(urlQuery).language === undefined;
  const shownQuery = catalogQueryString(shown);
  useEffect(() => {
    // The address then says so too, as if it had been chosen here: a reload, a link and back show the same.
    if (rememberedNotInAddress) navigate(`${path}?${shownQuery}`, { replace: true });
  }, [rememberedNotInAddress, shownQuery, navigate, path]);

  const searchInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!takeCatalogSearchFocus()) return;
    // After the app has given a new screen's content the focus (App.tsx), in the same commit.
    const later = setTimeout(() => searchInput.current?.focus());
    return () => clearTimeout(later);
  }, [urlQuery]);

  const [searchBox, setSearchBox] = useState(shown.search);
  const [searchBoxSource, setSearchBoxSource] = useState(shown.search);
  // When the address's search changes, the box follows.
  if (shown.search !== searchBoxSource) {
    setSearchBoxSource(shown.search);
    setSearchBox(shown.search);
  }
  /** Counts submissions, so submitting the same search again still goes back to the first page. */
  const [submissionCount, setSubmissionCount] = useState(0);
  const genreOptions = useGenreOptions();
  const languageOptions = useLanguageOptions();
  // Kept in the page across searches, so screen readers are already listening when the results change (WCAG 4.1.3).
  const [resultsAnnouncement, setResultsAnnouncement] = useState("");

  const isSearching = !!shown.search;
  const defaultSort = isSearching ? RELEVANCE : "newest";
  const sortOptions = [...(isSearching ? [RELEVANCE] : []), ...CATALOG_SORTS].map((sort) => ({
    value: sort,
    label: t(`catalog.sort.${sort}`),
  }));
  const filters: BookFilters = { ...shown, search: shown.search || undefined, titleLanguage: shown.sort === "title" ? i18n.resolvedLanguage : undefined };

  const show = (next: CatalogFilters) => {
    const query = catalogQueryString(next);
    if (query !== urlQuery) navigate(query ? `${path}?${query}` : path);
  };

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    show({ ...shown, search: searchBox });
    setSubmissionCount((count) => count + 1);
  };

  const showLanguage = (value: string) => {
    const language: BookLanguage | undefined = isBookLanguage(value) ? value : undefined;
    chooseBookLanguage(language);
    show({ ...shown, language });
  };

  const clearFilters = () => {
    setSearchBox("");
    chooseBookLanguage(undefined);
    show({ ...shown, search: "", genre: undefined, tag: undefined, language: undefined });
  };

  return (
    <PageFrame title={t("catalog.title")} description={t("catalog.subtitle")}>
      <form
        role="search"
        aria-label={t("catalog.searchRegion")}
        onSubmit={submitSearch}
        className="mt-8 grid gap-4 rounded-xl border border-line bg-surface p-4 shadow-sm sm:grid-cols-3 lg:grid-cols-[minmax(0,1fr)_12rem_12rem_12rem] lg:items-end"
      >
        <div className="sm:col-span-3 lg:col-span-1">
          <label htmlFor={searchInputId} className="block text-sm font-medium text-ink">
            {t("catalog.searchLabel")}
          </label>
          <div className="mt-1 flex gap-2">
            <input
              ref={searchInput}
              id={searchInputId}
              type="search"
              data-testid="catalog-search"
              value={searchBox}
              onChange={(event) => setSearchBox(event.target.value)}
              maxLength={SEARCH_MAX}
              placeholder={t("catalog.searchPlaceholder")}
              enterKeyHint="search"
              className="block min-h-11 w-full min-w-0 rounded-md border border-line-strong bg-surface px-3 py-2 text-base text-ink shadow-xs placeholder:text-ink-muted focus-visible:border-accent"
            />
            <button type="submit" className={buttonClassName("primary", "min-h-11 shrink-0")}>
              <SearchIcon />
              {/* On a phone the magnifier alone leaves the box room for its placeholder. */}
              <span className="max-sm:sr-only">{t("catalog.searchSubmit")}</span>
            </button>
          </div>
        </div>
        <SelectField
          label={t("catalog.genreLabel")}
          data-testid="catalog-genre"
          value={shown.genre ?? ALL_GENRES}
          onChange={(event) => show({ ...shown, genre: event.target.value as GenreKey })}
          options={genreOptions}
        />
        <SelectField
          label={t("catalog.languageLabel")}
          data-testid="catalog-language"
          value={shown.language ?? ALL_LANGUAGES}
          onChange={(event) => showLanguage(event.target.value)}
          options={languageOptions}
        />
        <SelectField
          label={t("catalog.sortLabel")}
          data-testid="catalog-sort"
          value={shown.sort ?? defaultSort}
          onChange={(event) => show({ ...shown, sort: event.target.value as CatalogSort })}
          options={sortOptions}
        />
      </form>
      {shown.tag && <TagFilter slug={shown.tag} onRemove={() => show({ ...shown, tag: undefined })} />}
      <p role="status" data-testid="catalog-results-status" className="sr-only">
        {resultsAnnouncement}
      </p>
      <div className="mt-8">
        <CatalogResults
          key={JSON.stringify({ filters, urlQuery, submissionCount })}
          filters={filters}
          isFiltered={isSearching || shown.genre !== undefined || shown.tag !== undefined || shown.language !== undefined}
          onClearFilters={clearFilters}
          onOutcome={setResultsAnnouncement}
        />
      </div>
    </PageFrame>
  );
}
