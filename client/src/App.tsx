import { useEffect } from "react";
import { Route, Switch, useLocation } from "wouter";
import { GuestOnly } from "@/components/auth/guest-only";
import { RequireAuth } from "@/components/auth/require-auth";
import { AppLayout } from "@/components/layout/app-layout";
import { WalletProvider } from "@/components/wallet/wallet-provider";
import { useAuth } from "@/hooks/use-auth";
import { CatalogPage } from "@/pages/catalog-page";
import { DashboardPage } from "@/pages/dashboard-page";
import { EditBookPage } from "@/pages/edit-book-page";
import { HomePage } from "@/pages/home-page";
import { LandingPage } from "@/pages/landing-page";
import { LoginPage } from "@/pages/login-page";
import { NotFoundPage } from "@/pages/not-found-page";
import { RegisterPage } from "@/pages/register-page";
import { UploadPage } from "@/pages/upload-page";

/** The route table of spec §2: "/" is the landing page until the session is known to be signed in. */
function AppRoutes() {
  const { isAuthenticated } = useAuth();
  return (
    <Switch>
      <Route path="/" component={isAuthenticated ? HomePage : LandingPage} />
      <Route path="/catalog" component={CatalogPage} />
      <Route path="/login">
        <GuestOnly>
          <LoginPage />
        </GuestOnly>
      </Route>
      <Route path="/register">
        <GuestOnly>
          <RegisterPage />
        </GuestOnly>
      </Route>
      <Route path="/upload">
        <RequireAuth>
          <UploadPage />
        </RequireAuth>
      </Route>
      {/* The id is optional here so that a missing id gets the invalid-id message rather than a 404. */}
      <Route path="/edit-book/:id?">
        <RequireAuth>
          <EditBookPage />
        </RequireAuth>
      </Route>
      <Route path="/dashboard">
        <RequireAuth>
          <DashboardPage />
        </RequireAuth>
      </Route>
      <Route component={NotFoundPage} />
    </Switch>
  );
}

export function App() {
  const [location] = useLocation();
  // Client-side navigation keeps the old scroll position; a new screen should start at its top.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);

  return (
    <WalletProvider>
      <AppLayout>
        <AppRoutes />
      </AppLayout>
    </WalletProvider>
  );
}
