import { bookReaderPath } from "@shared/book-urls";
import type { BookCard } from "@shared/books";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { ShelfControl } from "@/features/books/shelf-control";
import { continueReadingText, useContinueReading, usePercentFormat } from "@/features/books/use-shelves";
import { useAuth } from "@/features/accounts";
import { loginPathReturningTo, useReturnPath } from "@/lib/use-return-path";
import { textLinkClassName } from "@/ui/styles";

/** "Continue reading (page 18)" when the reader has a place in this book and has not put it on Read. */
function ContinueReadingLink({ book }: { book: BookCard }) {
  const { t } = useTranslation();
  const percent = usePercentFormat();
  const place = useContinueReading(true, book.id).data?.items[0];
  if (!place) return null;
  return (
    <Link href={bookReaderPath(book)} data-testid="continue-reading" className={`${textLinkClassName} text-sm`}>
      {continueReadingText(place, percent, t)}
    </Link>
  );
}

/**
 * The book page's shelf line (docs/product.md#shelves): the reader's shelf for it and where they
 * were in it; a visitor is offered to sign in and come back (nothing while the session is unknown).
 */
export function BookPageShelf({ book }: { book: BookCard }) {
  const { t } = useTranslation();
  const { user, isLoading } = useAuth();
  const returnPath = useReturnPath();
  if (isLoading) return null;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2" data-testid="book-page-shelf">
      {user ? (
        <>
          <div className="w-full sm:w-auto sm:min-w-56">
            <ShelfControl book={book} />
          </div>
          <ContinueReadingLink book={book} />
        </>
      ) : (
        <Link href={loginPathReturningTo(returnPath)} className={`${textLinkClassName} text-sm`}>
          {t("shelves.loginToShelve")}
        </Link>
      )}
    </div>
  );
}
