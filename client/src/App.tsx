import type { ScreenPath } from "@shared/screens";
import { type ReactNode, Suspense, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Route, Switch, useLocation } from "wouter";
import { firstScreen, lazyScreen } from "@/lib/lazy-screen";
import { AppLayout, LandingFooterColumns } from "@/features/site";
import { WalletProvider } from "@/features/wallet";
import { GuestOnly, RequireAuth, useAuth } from "@/features/accounts";
import { CatalogPage } from "@/features/catalog";
import { NotFoundPage } from "@/ui/not-found-page";

// A screen is the one file inside a feature that code outside it names, and only with import(): the
// feature's index would bring it into the first script (docs/decisions/0057-client-feature-folders.md).
const HomePage = lazyScreen(() => import("@/features/site/home-page").then((module) => module.HomePage));
const LoginPage = lazyScreen(() => import("@/features/accounts/login-page").then((module) => module.LoginPage));
const RegisterPage = lazyScreen(() => import("@/features/accounts/register-page").then((module) => module.RegisterPage));
const UploadPage = lazyScreen(() => import("@/features/books/upload-page").then((module) => module.UploadPage));
const EditBookPage = lazyScreen(() => import("@/features/books/edit-book-page").then((module) => module.EditBookPage));
const ForgotPasswordPage = lazyScreen(() => import("@/features/accounts/forgot-password-page").then((module) => module.ForgotPasswordPage));
const ResetPasswordPage = lazyScreen(() => import("@/features/accounts/reset-password-page").then((module) => module.ResetPasswordPage));
const VerifyEmailPage = lazyScreen(() => import("@/features/accounts/verify-email-page").then((module) => module.VerifyEmailPage));
const DashboardPage = lazyScreen(() => import("@/features/dashboard/dashboard-page").then((module) => module.DashboardPage));
const AdminPage = lazyScreen(() => import("@/features/admin/admin-page").then((module) => module.AdminPage));
const SettingsPage = lazyScreen(() => import("@/features/settings/settings-page").then((module) => module.SettingsPage));
// First screens of their own: a shared link opens the book page, the address of the site the landing
// page. Each comes as a chunk beside the first script (the server preloads it) with the first screens'
// texts, so no first visit carries the other's code: each stays within 120 KB (docs/decisions/0028).
const LandingPage = firstScreen(() => import("@/features/site/landing-page").then((module) => module.LandingPage));
const BookPage = firstScreen(() => import("@/features/books/book-page").then((module) => module.BookPage));

/**
 * The chunk of the first screen an address shows, when it has one, for main.tsx to await before the
 * first render. A failure is left to the screen itself, which meets it again when it is drawn.
 */
export function preloadFirstScreen(path: string): Promise<unknown> {
  const screens = path === "/" ? [LandingPage, LandingFooterColumns] : /^\/books\/[^/]+\/?$/.test(path) ? [BookPage] : [];
  return Promise.all(screens.map((screen) => screen.preload())).catch(() => undefined);
}
const AuthorPage = lazyScreen(() => import("@/features/books/author-page").then((module) => module.AuthorPage));
const SeriesPage = lazyScreen(() => import("@/features/series/series-page").then((module) => module.SeriesPage));
const MyBooksPage = lazyScreen(() => import("@/features/shelves/my-books-page").then((module) => module.MyBooksPage));
const ReaderShelvesPage = lazyScreen(() => import("@/features/shelves/reader-shelves-page").then((module) => module.ReaderShelvesPage));
const ReaderPage = lazyScreen(() => import("@/features/reader/reader-page").then((module) => module.ReaderPage));
const ReportPage = lazyScreen(() => import("@/features/moderation/report-page").then((module) => module.ReportPage));
const UnsubscribePage = lazyScreen(() => import("@/features/follows/unsubscribe-page").then((module) => module.UnsubscribePage));
const InfoPage = lazyScreen(() => import("@/features/site/info-page").then((module) => module.InfoPage));

function ScreenLoading() {
  const { t } = useTranslation();
  return (
    <p role="status" className="mx-auto max-w-6xl px-4 py-16 text-ink-muted">
      {t("common.loading")}
    </p>
  );
}

/**
 * The route table of docs/product.md#screens: a screen for each path of shared/screens.ts, and for no
 * other (its type says so), so the server, which answers 404 outside that list, knows every screen.
 * "/" is the landing page until the session is known to be signed in.
 */
function AppRoutes() {
  const { isAuthenticated } = useAuth();
  const screens: Record<ScreenPath, ReactNode> = {
    "/": isAuthenticated ? <HomePage /> : <LandingPage />,
    "/catalog": <CatalogPage />,
    "/books/:id/read": (
      <RequireAuth>
        <ReaderPage />
      </RequireAuth>
    ),
    "/books/:segment": <BookPage />,
    "/authors/:id": <AuthorPage />,
    "/series/:id": <SeriesPage />,
    "/readers/:username": <ReaderShelvesPage />,
    "/login": (
      <GuestOnly>
        <LoginPage />
      </GuestOnly>
    ),
    "/register": (
      <GuestOnly>
        <RegisterPage />
      </GuestOnly>
    ),
    // Open signed in too: a reset link works whoever holds it, and keeps the session it is used in.
    "/forgot-password": <ForgotPasswordPage />,
    "/reset-password": <ResetPasswordPage />,
    // Open to anyone: the link is the proof, and a mail is often opened where nobody is signed in.
    "/verify-email": <VerifyEmailPage />,
    "/upload": (
      <RequireAuth>
        <UploadPage />
      </RequireAuth>
    ),
    "/edit-book/:id?": (
      <RequireAuth>
        <EditBookPage />
      </RequireAuth>
    ),
    "/dashboard": (
      <RequireAuth>
        <DashboardPage />
      </RequireAuth>
    ),
    "/settings": (
      <RequireAuth>
        <SettingsPage />
      </RequireAuth>
    ),
    "/my-books": (
      <RequireAuth>
        <MyBooksPage />
      </RequireAuth>
    ),
    "/admin/:section?": (
      <RequireAuth>
        <AdminPage />
      </RequireAuth>
    ),
    "/help": <InfoPage />,
    "/author-guide": <InfoPage />,
    "/terms": <InfoPage />,
    "/privacy": <InfoPage />,
    "/contact": <InfoPage />,
    "/transparency": <InfoPage />,
    "/report": <ReportPage />,
    "/unsubscribe": <UnsubscribePage />,
  };
  return (
    <Switch>
      {Object.entries(screens).map(([path, screen]) => (
        <Route key={path} path={path}>
          {screen}
        </Route>
      ))}
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}

export function App() {
  const [location] = useLocation();
  // Client-side navigation keeps the old scroll position; a new screen should start at its top.
  const previousLocation = useRef(location);
  useEffect(() => {
    if (previousLocation.current === location) return;
    previousLocation.current = location;
    window.scrollTo(0, 0);
    // A screen reader hears nothing when a link swaps the screen in place: moving the focus to the
    // new content announces it, and the next Tab starts there as on a new page.
    document.getElementById("main-content")?.focus({ preventScroll: true });
  }, [location]);

  return (
    <WalletProvider>
      <AppLayout>
        <Suspense fallback={<ScreenLoading />}>
          <AppRoutes />
        </Suspense>
      </AppLayout>
    </WalletProvider>
  );
}
