import type { BookCard } from "@shared/books";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { useAuth } from "@/features/accounts";
import { useSendToEReader } from "@/features/books/use-books";
import { Spinner } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";

/** Where the settings set the e-reader's address (client/src/features/settings/settings-page.tsx). */
const E_READER_EMAIL_SETTINGS_PATH = "/settings#e-reader-email";

function MailIcon({ className = "size-4" }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinejoin="round">
      <path d="M3 5h14v10H3zM3 5.5l7 5.5 7-5.5" />
    </svg>
  );
}

// A row of its own under the page's three actions, as wide as its words.
const className = buttonClassName("secondary", "w-full sm:col-span-full sm:w-auto sm:justify-self-start");

/**
 * "Send to my e-reader" (docs/product.md#send-to-e-reader), for a signed-in reader: the book is mailed
 * to the e-reader address of the settings; without one, the way to the settings section that sets it.
 * Visitors see nothing of it: downloading, which they are asked to sign in for, comes first.
 */
export function SendToEReaderButton({ book }: { book: BookCard }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const send = useSendToEReader();
  if (!user) return null;
  if (!user.eReaderEmail) {
    return (
      <Link href={E_READER_EMAIL_SETTINGS_PATH} data-testid="send-to-e-reader-setup" className={className}>
        <MailIcon />
        <span className="text-center whitespace-normal">{t("bookPage.setUpEReader")}</span>
      </Link>
    );
  }
  return (
    <button
      type="button"
      data-testid="send-to-e-reader"
      disabled={send.isPending}
      aria-busy={send.isPending}
      onClick={() => send.mutate(book)}
      className={className}
    >
      {send.isPending ? <Spinner /> : <MailIcon />}
      <span className="text-center whitespace-normal">{t(send.isPending ? "bookPage.sendingToEReader" : "bookPage.sendToEReader")}</span>
    </button>
  );
}
