import type { BookCard } from "@shared/books";
import { SHELVES, type Shelf } from "@shared/shelves";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { CheckIcon } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { useShelfOf, useShelveBook } from "@/features/books/use-shelves";

function Caret() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M4 6l4 4 4-4" />
    </svg>
  );
}

function PlusIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M8 3v10M3 8h10" />
    </svg>
  );
}

/** The list of shelves under the control: each a button, the current one pressed, and a way off them all. */
function ShelfMenu({ id, book, shelf, choose }: { id: string; book: BookCard; shelf: Shelf | undefined; choose: (shelf: Shelf | null) => void }) {
  const { t } = useTranslation();
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    list.current?.querySelector("button")?.focus();
  }, []);
  const item = "flex w-full min-h-10 items-center gap-2 rounded px-3 py-2 text-left text-sm hover:bg-accent-soft hover:text-accent-strong";
  return (
    <ul
      ref={list}
      id={id}
      aria-label={t("shelves.menu", { title: book.title })}
      className="absolute top-full left-0 z-20 mt-1 min-w-full w-max rounded-md border border-line bg-surface p-1 shadow-lg"
    >
      {SHELVES.map((option) => (
        <li key={option}>
          <button type="button" aria-pressed={shelf === option} data-testid={`shelf-${option}`} onClick={() => choose(option)} className={item}>
            <span className="inline-flex size-4">{shelf === option && <CheckIcon />}</span>
            {t(`shelves.names.${option}`)}
          </button>
        </li>
      ))}
      {shelf && (
        <li className="mt-1 border-t border-line pt-1">
          <button type="button" data-testid="shelf-remove" onClick={() => choose(null)} className={`${item} text-ink-muted`}>
            <span className="inline-flex size-4" />
            {t("shelves.remove")}
          </button>
        </li>
      )}
    </ul>
  );
}

/**
 * A book's shelf for the signed-in reader (docs/product.md#shelves): one click puts it on Want to read;
 * the arrow (or the shelf's own button once it is on one) opens the three shelves and a way off them.
 * The shelf comes from the reader's one map of shelved books, never a request of its own.
 */
export function ShelfControl({ book, size = "full" }: { book: BookCard; size?: "full" | "compact" }) {
  const { t } = useTranslation();
  const { shelf, isPending } = useShelfOf(book.id, true);
  const shelve = useShelveBook(book.id);
  const [isOpen, setIsOpen] = useState(false);
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    const closeOutside = (event: MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setIsOpen(false);
    };
    document.addEventListener("mousedown", closeOutside);
    return () => document.removeEventListener("mousedown", closeOutside);
  }, [isOpen]);

  const close = () => {
    setIsOpen(false);
    opener.current?.focus();
  };
  const choose = (next: Shelf | null) => {
    close();
    if (next !== (shelf ?? null)) shelve.mutate(next);
  };
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === "Escape" && isOpen) {
      event.stopPropagation();
      close();
    }
  };
  const width = size === "full" ? "w-full" : "";
  const disabled = isPending || shelve.isPending;
  const title = (
    <span className="sr-only" lang={book.language}>
      {`: ${book.title}`}
    </span>
  );

  return (
    <div ref={wrapper} className={`relative flex ${width}`} data-testid="shelf-control" data-shelf={shelf ?? ""} onKeyDown={closeOnEscape}>
      {shelf ? (
        <button
          ref={opener}
          type="button"
          aria-expanded={isOpen}
          aria-controls={isOpen ? menuId : undefined}
          disabled={disabled}
          data-testid="shelf-button"
          onClick={() => setIsOpen(!isOpen)}
          className={buttonClassName("secondary", `${width} justify-between border-accent text-accent-strong`)}
        >
          <span className="inline-flex items-center gap-2">
            <CheckIcon />
            <span className="sr-only">{t("shelves.choose")}: </span>
            {t(`shelves.names.${shelf}`)}
            {title}
          </span>
          <Caret />
        </button>
      ) : (
        <>
          <button
            type="button"
            disabled={disabled}
            data-testid="shelf-want"
            onClick={() => shelve.mutate("want")}
            className={buttonClassName("secondary", `${width} min-w-0 rounded-r-none`)}
          >
            <PlusIcon />
            <span className="whitespace-normal">{t("shelves.wantToRead")}</span>
            {title}
          </button>
          <button
            ref={opener}
            type="button"
            aria-expanded={isOpen}
            aria-controls={isOpen ? menuId : undefined}
            aria-label={t("shelves.menu", { title: book.title })}
            disabled={disabled}
            data-testid="shelf-menu"
            onClick={() => setIsOpen(!isOpen)}
            className={buttonClassName("secondary", "-ml-px rounded-l-none px-2 sm:px-2")}
          >
            <Caret />
          </button>
        </>
      )}
      {isOpen && <ShelfMenu id={menuId} book={book} shelf={shelf} choose={choose} />}
    </div>
  );
}
