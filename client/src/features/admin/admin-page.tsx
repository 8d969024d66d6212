import { useTranslation } from "react-i18next";
import { useParams } from "wouter";
import { AdminPanel } from "@/features/admin/admin-panel";
import { adminSectionOf } from "@/features/admin/admin-sections";
import { NotFoundPage } from "@/ui/not-found-page";
import { PageFrame } from "@/ui/page-frame";

/** The admin panel at its own addresses, /admin and /admin/{tab} (docs/product.md#screens); the API refuses anyone but the admin. */
export function AdminPage() {
  const { t } = useTranslation();
  const section = adminSectionOf(useParams<{ section?: string }>().section);
  if (!section) return <NotFoundPage />;
  return (
    <PageFrame title={t(`admin.tabs.${section}`)} description={t("admin.pageDescription")}>
      <div className="mt-8">
        <AdminPanel section={section} />
      </div>
    </PageFrame>
  );
}
