import { useEffect } from "react";
import { useTranslation } from "react-i18next";

/** Names the browser tab after the screen, so tabs, history and screen readers tell screens apart. */
export function useDocumentTitle(pageTitle: string): void {
  const { t } = useTranslation();
  const title = t("app.documentTitle", { page: pageTitle });
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/**
 * Sets the page's meta description while the screen is shown and puts back the one it replaced
 * after, so a screen reached by a click describes itself as the server would have (docs/product.md#book-pages).
 */
export function useDocumentDescription(description: string | undefined): void {
  useEffect(() => {
    const element = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!element || description === undefined) return;
    const previous = element.content;
    element.content = description;
    return () => {
      element.content = previous;
    };
  }, [description]);
}
