import "@/index.css";
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App } from "@/App";
import { i18nReady } from "@/i18n";
import { createQueryClient } from "@/lib/query-client";

const queryClient = createQueryClient();

await i18nReady;
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
