import type { PageLayout, Size } from "@/features/reader/page-fit";
import type { ReaderTheme } from "@/features/reader/reader-theme";

/**
 * What the reader page gives each format's view (PDF, Word, EPUB…): one branch of reader-page.tsx
 * renders a format's component with these.
 */
export interface FormatViewProps {
  bookId: number;
  page: number;
  onPageCount(count: number): void;
  theme: ReaderTheme;
  /** The fit and zoom the reader chose for this format. */
  layout: PageLayout;
  /** The space a page may take: the reading area less its margins (0 × 0 until measured). */
  room: Size;
  /** The scale the view shows at now, for the display panel's percentage (1 is the book's own size). */
  onScale(scale: number): void;
}
