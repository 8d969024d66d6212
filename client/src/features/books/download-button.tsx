import type { BookCard } from "@shared/books";
import { useTranslation } from "react-i18next";
import { useLocation } from "wouter";
import { DownloadIcon, LockIcon, Spinner } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { useAuth } from "@/features/accounts";
import { useDownloadBook } from "@/features/books/use-books";
import { loginPathReturningTo, useReturnPath } from "@/lib/use-return-path";
import { toast } from "@/lib/toast";

const downloadButtonClassName = buttonClassName("primary", "w-full");

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

/** While the session is still being checked the button waits, so a signed-in reader never sees the lock flash by. */
function SignedInDownloadButton({ book, isCheckingSession }: { book: BookCard; isCheckingSession: boolean }) {
  const { t } = useTranslation();
  const download = useDownloadBook();
  return (
    <button
      type="button"
      data-testid="download-button"
      disabled={isCheckingSession || download.isPending}
      aria-busy={download.isPending}
      onClick={() => download.mutate(book)}
      className={downloadButtonClassName}
    >
      {download.isPending ? <Spinner /> : <DownloadIcon />}
      <ButtonLabel text={t(download.isPending ? "book.downloading" : "book.download")} />
      <BookTitleForScreenReaders book={book} />
    </button>
  );
}

export function DownloadButton({ book }: { book: BookCard }) {
  const { isAuthenticated, isLoading } = useAuth();
  if (!isAuthenticated && !isLoading) return <LoginToDownloadButton book={book} />;
  return <SignedInDownloadButton book={book} isCheckingSession={isLoading} />;
}
