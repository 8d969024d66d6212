import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { PageFrame } from "@/ui/page-frame";
import { buttonClassName, textLinkClassName } from "@/ui/styles";

/**
 * A page that is not here (docs/product.md#screens): a book says what may have become of it (deleted or
 * unpublished by its author, or a mistyped address), and every such page leads on to the catalog and home.
 */
export function NotFoundPage({ kind = "page" }: { kind?: "page" | "book" }) {
  const { t } = useTranslation();
  const texts = kind === "book" ? "notFound.book" : "notFound";
  return (
    <PageFrame title={t(`${texts}.title`)} description={t(`${texts}.description`)}>
      <div className="mt-6 flex flex-wrap items-center gap-4">
        <Link href="/catalog" className={buttonClassName("primary")}>
          {t("notFound.browseCatalog")}
        </Link>
        <Link href="/" className={textLinkClassName}>
          {t("common.backHome")}
        </Link>
      </div>
    </PageFrame>
  );
}
