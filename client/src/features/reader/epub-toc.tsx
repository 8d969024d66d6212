import type { FoliateTocItem } from "foliate-js/view.js";
import { useTranslation } from "react-i18next";

interface EpubTocProps {
  id: string;
  items: FoliateTocItem[];
  /** The chapter the reader is in, marked as the current one. */
  current: string | null;
  onGo(href: string): void;
}

function TocList({ items, current, onGo, depth }: Omit<EpubTocProps, "id"> & { depth: number }) {
  return (
    <ol className={depth > 0 ? "ms-4 border-s border-line ps-2" : ""}>
      {items.map((item, index) => (
        <li key={`${item.href}-${index}`}>
          <button
            type="button"
            onClick={() => onGo(item.href)}
            aria-current={item.href === current ? "location" : undefined}
            className="w-full rounded-md px-2 py-2 text-start text-sm text-ink hover:bg-accent-soft hover:text-accent-strong aria-[current]:font-semibold aria-[current]:text-accent-strong"
          >
            {item.label.trim() || "—"}
          </button>
          {item.subitems && item.subitems.length > 0 && <TocList items={item.subitems} current={current} onGo={onGo} depth={depth + 1} />}
        </li>
      ))}
    </ol>
  );
}

/** The book's table of contents (its nav document), as a panel of buttons: each one goes to its chapter. */
export function EpubToc({ id, items, current, onGo }: EpubTocProps) {
  const { t } = useTranslation();
  return (
    <nav
      id={id}
      aria-labelledby={`${id}-heading`}
      className="absolute inset-y-0 start-0 z-20 w-full max-w-xs overflow-y-auto border-e border-line bg-surface p-3 shadow-lg sm:static sm:shadow-none"
      data-testid="epub-toc"
    >
      <h2 id={`${id}-heading`} className="px-2 pb-2 text-base font-semibold">
        {t("epubReader.contents")}
      </h2>
      {items.length === 0 ? <p className="px-2 text-sm text-ink-muted">{t("epubReader.noContents")}</p> : <TocList items={items} current={current} onGo={onGo} depth={0} />}
    </nav>
  );
}
