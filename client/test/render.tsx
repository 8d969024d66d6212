import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement } from "react";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { Toaster } from "@/ui/toaster";
import { WalletProvider } from "@/features/wallet";
import { createQueryClient } from "@/lib/query-client";

interface RenderOptions {
  /** Where the in-memory router starts, with any query string. */
  path?: string;
  /** Screens rendered alone need a Toaster; the whole App brings its own. */
  withToaster?: boolean;
  /** Screens that show the wallet need the app's WalletProvider (the whole App brings its own). */
  withWallet?: boolean;
}

/** Renders a screen the way the app does (fresh query cache, router, toasts), in memory. */
export function renderWithApp(ui: ReactElement, { path = "/", withToaster = true, withWallet = false }: RenderOptions = {}) {
  const queryClient = createQueryClient();
  const location = memoryLocation({ path, record: true });
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {withWallet ? <WalletProvider>{ui}</WalletProvider> : ui}
        {withToaster && <Toaster />}
      </Router>
    </QueryClientProvider>,
  );
  return { ...view, user, queryClient, history: location.history };
}

/** The alerts that say something (form alerts, a destructive toast): the toaster keeps an empty one ready. */
export const shownAlerts = () => screen.queryAllByRole("alert").flatMap((alert) => (alert.textContent ? [alert.textContent] : []));
