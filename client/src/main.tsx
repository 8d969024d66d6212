import "@/index.css";
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, preloadFirstScreen } from "@/App";
import { i18nReady } from "@/lib/i18n";
import { createQueryClient } from "@/lib/query-client";

const queryClient = createQueryClient();

function renderApp() {
  // One render of the whole tree: preact/compat's startTransition is a plain call, so wrapping it in one
  // would promise a yielding render that Preact does not do (docs/decisions/0076).
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
}

// The texts, and the chunk of the screen the address shows when it has one (docs/decisions/0028): the
// first render then draws that screen at once. Not awaited at the top level: that chunk imports this
// module's chunk, which would wait for it to finish first, and neither would ever load.
void Promise.all([i18nReady, preloadFirstScreen(window.location.pathname)]).then(renderApp);
