import { useTranslation } from "react-i18next";
import { Link, useParams } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { textLinkClassName } from "@/components/ui/styles";

/** A book id is a positive integer; anything else ("abc", "1.5", "-3", nothing) is not an id. */
function parseBookId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d*$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

export function EditBookPage() {
  const { t } = useTranslation();
  const { id } = useParams<{ id?: string }>();

  if (parseBookId(id) === null) {
    return (
      <PageFrame title={t("editBook.title")} description={t("editBook.invalidId")}>
        <Link href="/dashboard" className={`mt-6 inline-block ${textLinkClassName}`}>
          {t("editBook.backToDashboard")}
        </Link>
      </PageFrame>
    );
  }
  return <PageFrame title={t("editBook.title")} description={t("editBook.comingSoon")} />;
}
