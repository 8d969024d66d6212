import "@/index.css";
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App, preloadFirstScreen } from "@/App";
import { i18nReady } from "@/lib/i18n";
import { createQueryClient } from "@/lib/query-client";

const queryClient = createQueryClient();

function renderApp() {
  const root = createRoot(document.getElementById("root")!);
  // As a transition, the first render yields to the browser every few milliseconds instead of
  // holding the main thread for the whole tree (on a slow phone, hundreds of milliseconds).
  startTransition(() => {
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </StrictMode>,
    );
  });
}

// The texts, and the chunk of the screen the address shows when it has one (docs/decisions/0028): the
// first render then draws that screen at once. Not awaited at the top level: that chunk imports this
// module's chunk, which would wait for it to finish first, and neither would ever load.
void Promise.all([i18nReady, preloadFirstScreen(window.location.pathname)]).then(renderApp);
