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
    alias: [
      { find: "@shared", replacement: fromRoot("./shared") },
      { find: "@", replacement: fromRoot("./client/src") },
      // React 19 has the hook that wouter and react-i18next import from this shim for older Reacts; the
      // shim's CommonJS build, fallback included, cost the first script 281 bytes gzipped (docs/decisions/0072).
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: fromRoot("./client/src/lib/use-sync-external-store.ts") },
    ],
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
