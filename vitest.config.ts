import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/longest-first-sequencer.ts";
import viteConfig from "./vite.config.ts";

const rootDir = import.meta.dirname;
const alias = viteConfig.resolve?.alias;
const databaseUrl = process.env.TEST_DATABASE_URL;

/**
 * Whole-system scenarios: real server processes, a chain, nginx. They mostly wait on the processes they
 * drive (the chain faults: 113 CPU seconds in 300 s), so they run in a runner of their own beside the
 * suites (`test:system`) rather than holding one of the suites' two workers for minutes
 * (docs/performance.md#test-suite-time). Each starts its own databases, so it runs once.
 */
const SYSTEM_SCENARIOS = ["test/reliability/**/*.api.test.ts", "test/scale-out/**/*.api.test.ts"];

/**
 * Files whose subject is not the database: a hostile file's judgement, a cover's or a reading view's
 * drawing in a child process, an access rule, a page's head, a header. The same bytes go through the
 * same code whichever database keeps the rows, so they run once, as the fuzz test does: on PostgreSQL
 * when there is one (`.ci/run`), else on PGlite (docs/decisions/0083, docs/performance.md#test-suite-time).
 */
const FILES_RUN_ONCE = [
  "server/fuzz.api.test.ts",
  "server/upload-attacks.api.test.ts",
  "server/books/covers.api.test.ts",
  "server/reading/word-views.api.test.ts",
  "server/books/word-epub-check.api.test.ts",
  "server/http/authorization-matrix.api.test.ts",
  "server/pages/pages.api.test.ts",
  "server/security/same-origin.api.test.ts",
  "server/downloads/accel-redirect.api.test.ts",
  "server/openapi/openapi.api.test.ts",
  "server/http/config.api.test.ts",
];

/** Files that open PGlite themselves, whatever the project's backend: a second run on PostgreSQL would repeat them. */
const PGLITE_ONLY_FILES = [
  "server/db/first-book-migration.db.test.ts",
  "server/db/payout-batches-migration.db.test.ts",
  "server/db/cover-source-migration.db.test.ts",
  "server/db/review-decisions-migration.db.test.ts",
  "server/db/edition-documents-migration.db.test.ts",
];

/** The database and API suites run on embedded PGlite, and once more on PostgreSQL when TEST_DATABASE_URL is set. */
const apiProject = (name: string, backend: "pglite" | "postgres") => ({
  resolve: { alias },
  test: {
    name,
    root: rootDir,
    environment: "node",
    include: ["{server,test}/**/*.api.test.ts", "{server,test}/**/*.db.test.ts"],
    exclude: [
      ...configDefaults.exclude,
      ...SYSTEM_SCENARIOS,
      ...(backend === "pglite" && databaseUrl ? FILES_RUN_ONCE : []),
      ...(backend === "postgres" ? PGLITE_ONLY_FILES : []),
    ],
    env: { PLUME_TEST_BACKEND: backend },
    // Every file starts from one migrated database instead of its own initdb or migrations
    // (test/helpers/pglite-template.ts, test/helpers/postgres-template.ts).
    globalSetup: [backend === "pglite" ? "test/helpers/pglite-template.ts" : "test/helpers/postgres-template.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A worker keeps its loaded modules from one file to the next: each file still gets its own database
    // and app, and importing the server's modules again per file cost a fifth of the project's CPU.
    isolate: false,
  },
});

/**
 * Client files that mock a module or start fresh modules (vi.mock, vi.resetModules): what they replace
 * would stay in a shared worker's module cache for the files after them, so they run isolated.
 */
const CLIENT_FILES_THAT_REPLACE_MODULES = [
  "client/src/features/dashboard/dashboard-page.test.tsx",
  "client/src/lib/lazy-screen.test.tsx",
  "client/src/features/wallet/walletconnect.test.tsx",
];

/** The client's libraries that import react or react-dom, the test library included. */
const LIBRARIES_ON_REACT = ["@testing-library/react", "@tanstack/react-query", "react-hook-form", "@hookform/resolvers", "react-i18next", "react-dropzone", "wouter"];

/**
 * The client's tests in jsdom. The others share their worker's modules and jsdom from one file to the
 * next: a fresh jsdom and module graph per file took two thirds of the project's time
 * (docs/performance.md#test-suite-time).
 */
const clientProject = (name: string, files: { isolate: boolean; include?: string[]; exclude?: string[] }) =>
  mergeConfig(viteConfig, {
    // The client's test tooling (render helpers, fixtures, fakes) lives outside its source, and only tests name it.
    resolve: {
      alias: {
        "@client-test": `${rootDir}/client/test`,
        // Its ES module build, whose imports of react-dom go through the aliases; Node would pick its CommonJS one.
        "@testing-library/react": `${rootDir}/node_modules/@testing-library/react/dist/@testing-library/react.esm.js`,
      },
    },
    test: {
      name,
      root: rootDir,
      environment: "jsdom",
      include: files.include ?? ["client/**/*.test.{ts,tsx}"],
      exclude: [...configDefaults.exclude, ...(files.exclude ?? [])],
      setupFiles: ["client/test/setup.ts"],
      server: {
        deps: {
          // Bundled like our own code, so that a test can start a fresh i18next after vi.resetModules(); and the
          // libraries that import react, so that vite.config.ts's aliases give them preact/compat as in the
          // browser: Node would load them as they are, with React itself (docs/decisions/0076).
          inline: ["i18next", ...LIBRARIES_ON_REACT],
        },
      },
      // Screens rendered in jsdom with typed input take seconds when the machine is shared.
      testTimeout: 15_000,
      isolate: files.isolate,
    },
  });

export default defineConfig({
  test: {
    // Vitest's default on 2 cores is one file at a time; API files spend much of their time waiting on
    // sockets, child processes and timers, so two at once keep both cores busy (docs/decisions/0027).
    maxWorkers: 2,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          root: rootDir,
          environment: "node",
          include: ["shared/**/*.test.ts", "server/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts", "bench/**/*.test.ts"],
          exclude: ["{server,test}/**/*.api.test.ts", "{server,test}/**/*.db.test.ts"],
        },
      },
      clientProject("client", { isolate: false, exclude: CLIENT_FILES_THAT_REPLACE_MODULES }),
      clientProject("client-isolated", { isolate: true, include: CLIENT_FILES_THAT_REPLACE_MODULES }),
      apiProject("api", "pglite"),
      ...(databaseUrl ? [apiProject("api-postgres", "postgres")] : []),
      {
        resolve: { alias },
        test: {
          name: "system",
          root: rootDir,
          environment: "node",
          include: SYSTEM_SCENARIOS,
          // Their servers start from one bundle of the server made per run (docs/decisions/0087).
          globalSetup: ["test/helpers/system-server-bundle.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          root: rootDir,
          environment: "node",
          include: ["e2e/**/*.e2e.test.ts"],
          globalSetup: ["e2e/global-setup.ts"],
          // A browser on a busy 2-core machine: poll as long as Playwright's own waits, and let a tour of many screens take minutes.
          expect: { poll: { timeout: 15_000 } },
          testTimeout: 240_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
