import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./scripts/vite-precompress.ts";

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: fromRoot("./client"),
  publicDir: fromRoot("./client/public"),
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: {
      "@shared": fromRoot("./shared"),
      "@": fromRoot("./client/src"),
    },
  },
  build: {
    outDir: fromRoot("./dist/client"),
    emptyOutDir: true,
    // The server reads it to preload each language's texts with the page (server/http/app-page.ts).
    manifest: true,
    rolldownOptions: {
      // A feature's index only re-exports (docs/decisions/0057-client-feature-folders.md). Said to have no
      // side effects, it is looked through: each import goes to the file that holds the name, and a chunk
      // gets that file only, not everything the index names (the first script's budget, docs/decisions/0016).
      treeshake: { moduleSideEffects: [{ test: /\/client\/src\/features\/[^/]+\/index\.ts$/, sideEffects: false }] },
      output: {
        // Everything the first screen runs in one chunk; the lazy screens import what they share from it.
        // Left to itself Rolldown spread it over 17 chunks shared with the lazy screens, ≈ 8 KB larger
        // gzipped (docs/decisions/0016). The manifest then names no entry: only the texts are looked up there.
        codeSplitting: { groups: [{ name: "index", tags: ["$initial"] }] },
      },
    },
  },
});
