import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { foliateUnderCsp } from "./scripts/vite-foliate-under-csp.ts";
import { precompress } from "./scripts/vite-precompress.ts";

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Every React entry point the client, its libraries and its tests import, and its preact/compat twin. */
const reactOnPreact = Object.entries({
  react: "preact/compat",
  "react/jsx-runtime": "preact/compat/jsx-runtime",
  "react/jsx-dev-runtime": "preact/compat/jsx-dev-runtime",
  "react-dom": "preact/compat",
  "react-dom/client": "preact/compat/client",
  "react-dom/test-utils": "preact/test-utils",
}).map(([find, replacement]) => ({ find: new RegExp(`^${find}$`), replacement }));

export default defineConfig({
  root: fromRoot("./client"),
  publicDir: fromRoot("./client/public"),
  // No @vitejs/plugin-react: its Fast Refresh drives React's renderer, which Preact is not. Vite's own
  // transform compiles the JSX (tsconfig's "react-jsx"), and an edited component reloads the page in dev.
  plugins: [tailwindcss(), foliateUnderCsp(), precompress()],
  resolve: {
    alias: [
      { find: "@shared", replacement: fromRoot("./shared") },
      { find: "@", replacement: fromRoot("./client/src") },
      // React 19 has the hook that wouter and react-i18next import from this shim for older Reacts; the
      // shim's CommonJS build, fallback included, cost the first script 281 bytes gzipped (docs/decisions/0072).
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: fromRoot("./client/src/lib/use-sync-external-store.ts") },
      // The client is written against React's API and runs on Preact 11 through preact/compat, in the build,
      // the dev server and the client's tests alike: react-dom alone was 64.7 KB of a 100 KB first visit
      // (docs/decisions/0076). The libraries that import react get the same through these aliases.
      ...reactOnPreact,
    ],
  },
  // Pre-bundled dependencies skip the plugins' transforms: foliate-js is served as is, to be patched (scripts/vite-foliate-under-csp.ts).
  optimizeDeps: { exclude: ["foliate-js"] },
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
      // TanStack Query marks its modules "use client" for React Server Components, which a browser bundle has
      // no use for (@vitejs/plugin-react, dropped above, hid these warnings too).
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE" || !warning.message.includes('"use client"')) warn(warning);
      },
      output: {
        // Everything the first screen runs in one chunk; the lazy screens import what they share from it.
        // Left to itself Rolldown spread it over 17 chunks shared with the lazy screens, ≈ 8 KB larger
        // gzipped (docs/decisions/0016). The manifest then names no entry: only the texts are looked up there.
        codeSplitting: { groups: [{ name: "index", tags: ["$initial"] }] },
      },
    },
  },
});
