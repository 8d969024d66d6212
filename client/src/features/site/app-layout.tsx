import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { SiteFooter } from "@/features/site/site-footer";
import { TopNav } from "@/features/site/top-nav";
import { Toaster } from "@/ui/toaster";

export function AppLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main-content"
        className="sr-only rounded-md bg-accent font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:px-4 focus:py-2"
      >
        {t("common.skipToContent")}
      </a>
      <TopNav />
      <main id="main-content" tabIndex={-1} className="flex-1 outline-none">
        {children}
      </main>
      <SiteFooter />
      <Toaster />
    </div>
  );
}
