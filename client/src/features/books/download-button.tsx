import type { BookCard, BookFileFormat } from "@shared/books";
import { useTranslation } from "react-i18next";
import { useLocation } from "wouter";
import { DownloadIcon, LockIcon, Spinner } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { useAuth } from "@/features/accounts";
import { useDownloadBook } from "@/features/books/use-books";
import { useNumberFormat } from "@/lib/use-number-format";
import { loginPathReturningTo, useReturnPath } from "@/lib/use-return-path";
import { toast } from "@/lib/toast";

const downloadButtonClassName = buttonClassName("primary", "w-full");
const otherFormatClassName = buttonClassName("secondary", "w-full");

/** Long labels ("Connectez-vous pour télécharger") wrap inside a narrow card instead of overflowing it. */
function ButtonLabel({ text }: { text: string }) {
  return <span className="text-center whitespace-normal">{text}</span>;
}

/** A page lists many download buttons: their names say which book each one is for. */
function BookTitleForScreenReaders({ book }: { book: BookCard }) {
  return (
    <span className="sr-only" lang={book.language}>
      {`: ${book.title}`}
    </span>
  );
}

/** Downloads need an account (docs/product.md#roles): a visitor is told so and taken to the login screen, then back here. */
function LoginToDownloadButton({ book }: { book: BookCard }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const returnPath = useReturnPath();

  const askToLogIn = () => {
    toast({
      variant: "destructive",
      title: t("toasts.loginToDownload.title"),
      description: t("toasts.loginToDownload.description"),
    });
    navigate(loginPathReturningTo(returnPath));
  };

  return (
    <button type="button" data-testid="download-button" onClick={askToLogIn} className={downloadButtonClassName}>
      <LockIcon />
      <ButtonLabel text={t("book.loginToDownload")} />
      <BookTitleForScreenReaders book={book} />
    </button>
  );
}

/**
 * While the session is still being checked the button waits, so a signed-in reader never sees the lock
 * flash by. With `format`, the button names that file and its size ("Download EPUB · 1.2 MB").
 */
function SignedInDownloadButton({ book, format, secondary, isCheckingSession }: { book: BookCard; format?: BookFileFormat; secondary?: boolean; isCheckingSession: boolean }) {
  const { t } = useTranslation();
  const { fileSize } = useNumberFormat();
  const download = useDownloadBook();
  const label = download.isPending
    ? t("book.downloading")
    : format
      ? t("book.downloadFormat", { format: format.format.toUpperCase(), size: fileSize(format.size) })
      : t("book.download");
  return (
    <button
      type="button"
      data-testid={format ? `download-${format.format}` : "download-button"}
      disabled={isCheckingSession || download.isPending}
      aria-busy={download.isPending}
      onClick={() => download.mutate({ book, format: format?.format })}
      className={secondary ? otherFormatClassName : downloadButtonClassName}
    >
      {download.isPending ? <Spinner /> : <DownloadIcon />}
      <ButtonLabel text={label} />
      <BookTitleForScreenReaders book={book} />
    </button>
  );
}

export function DownloadButton({ book }: { book: BookCard }) {
  const { isAuthenticated, isLoading } = useAuth();
  if (!isAuthenticated && !isLoading) return <LoginToDownloadButton book={book} />;
  return <SignedInDownloadButton book={book} isCheckingSession={isLoading} />;
}

/**
 * A button per file of a book that has several, the EPUB first, as the one for e-readers
 * (docs/product.md#epub); a book of one file gets the one button, and a visitor the one that asks to log in.
 */
export function DownloadButtons({ book }: { book: BookCard }) {
  const { isAuthenticated, isLoading } = useAuth();
  if (!isAuthenticated && !isLoading) return <LoginToDownloadButton book={book} />;
  if (book.formats.length < 2) return <SignedInDownloadButton book={book} isCheckingSession={isLoading} />;
  const formats = [...book.formats].sort((a, b) => Number(b.format === "epub") - Number(a.format === "epub"));
  return formats.map((format, index) => <SignedInDownloadButton key={format.format} book={book} format={format} secondary={index > 0} isCheckingSession={isLoading} />);
}
