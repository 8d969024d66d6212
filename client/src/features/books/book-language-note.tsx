import { useTranslation } from "react-i18next";
import { chooseBookLanguage, useBookLanguageChoice } from "@/lib/book-language-choice";
import { textLinkClassName } from "@/ui/styles";

/**
 * Under a row of books on the home screens: the book language the rows show, the one the reader chose in
 * the catalog (docs/product.md#catalog-by-language), and the way back to every language. Nothing without a choice.
 */
export function BookLanguageNote({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  const language = useBookLanguageChoice();
  if (!language) return null;
  return (
    <p data-testid="book-language-note" className={`flex flex-wrap items-baseline gap-x-3 text-ink-muted ${className}`}>
      <span>{t(`bookLanguageNote.showing.${language}`)}</span>
      <button type="button" onClick={() => chooseBookLanguage(undefined)} className={`${textLinkClassName} min-h-11`}>
        {t("bookLanguageNote.showAll")}
      </button>
    </p>
  );
}
