import type { BookCard } from "@shared/books";
import { Suspense, lazy, useEffect, useRef, useState } from "react";

// A chunk of its own, fetched once the reader comes near the section: the reviews never delay the
// book page (docs/product.md#reviews; search engines read the reviews in the page's JSON-LD). The
// list's texts come with the first screens' (`reviewList`); the forms bring the later screens' texts.
const BookReviews = lazy(() => import("@/features/books/book-reviews").then((module) => ({ default: module.BookReviews })));

/**
 * How far below the window the section starts loading: a little ahead of the reader's scroll, but
 * not so far that a first visit to a book whose reviews sit below the fold fetches them unasked.
 */
const AHEAD = "150px 0px";

/** True once the element comes within AHEAD of the window; at once where IntersectionObserver is missing. */
function useNear(): [React.RefObject<HTMLDivElement | null>, boolean] {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === "undefined");
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && setNear(true), { rootMargin: AHEAD });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

export function LazyBookReviews({ book }: { book: BookCard }) {
  const [ref, near] = useNear();
  return (
    <div ref={ref} data-testid="book-reviews-slot">
      {near && (
        <Suspense fallback={null}>
          <BookReviews book={book} />
        </Suspense>
      )}
    </div>
  );
}
