import { readdirSync } from "node:fs";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Who may import whom (docs/decisions/0026-stricter-checks.md). Import paths are matched as written:
// the client reaches other folders only through its aliases, so a "../" there is already a way out.
const WHY = "see docs/decisions/0026-stricter-checks.md";
const POLICY_WHY = "see docs/decisions/0058-policies-decide-services-fetch.md";
const outOf = (folders, message) => ({ regex: `^(\\.\\./)+(${folders})/`, message: `${message} (${WHY})` });
const boundaries = {
  client: [
    { regex: "^\\.\\./", message: `Client code reaches other folders through @/, @shared/ and (tests) @client-test/ only, never server/, test/ or e2e/ (${WHY})` },
  ],
  shared: [
    { regex: "^@/", message: `shared/ is used by client and server alike: it imports neither (${WHY})` },
    outOf("client|server|test|e2e", "shared/ is used by client and server alike: it imports neither"),
  ],
  server: [{ regex: "^@/", message: `Server code never imports the client (${WHY})` }, outOf("client|e2e", "Server code never imports client/ or e2e/")],
  serverProduct: [outOf("test", "Only tests import test/")],
  routes: [
    { regex: "-repository(\\.ts)?$", message: `Routes talk to services, not to repositories (${WHY})` },
    { regex: "(^|/)db/schema(\\.ts)?$", message: `Routes talk to services, not to the tables (${WHY})` },
  ],
  repositories: [
    { regex: "-(service|routes?)(\\.ts)?$", message: `A repository knows the tables only: no services, no routes (${WHY})` },
    { regex: "(^|/)http/", message: `A repository knows the tables only: nothing of HTTP (${WHY})` },
  ],
  // A policy decides over the values it is given; the service fetches them (docs/decisions/0058-policies-decide-services-fetch.md).
  // The schema's row types describe those values and carry nothing at run time, so type imports of it are allowed.
  policies: [
    { regex: "^express(/|$)", message: `A policy decides over values, not over a request: the route or service passes what it needs (${POLICY_WHY})` },
    { regex: "-repository(\\.ts)?$", message: `A policy never looks anything up: the service fetches and hands it the row (${POLICY_WHY})` },
    { regex: "(^|/)db/client(\\.ts)?$", message: `A policy never holds the database: the service fetches and hands it the row (${POLICY_WHY})` },
    { regex: "(^|/)db/schema(\\.ts)?$", allowTypeImports: true, message: `A policy may name the schema's row types, never its tables (${POLICY_WHY})` },
    { regex: "-(service|routes?)(\\.ts)?$", message: `A policy is called by services; it calls none, nor any route (${POLICY_WHY})` },
  ],
};
// A later block replaces an earlier block's options for the same rule, so each block lists all its patterns.
const restrictImports = (...patterns) => ({ "no-restricted-imports": ["error", { patterns: patterns.flat(Infinity) }] });

// The client's feature folders (docs/decisions/0057-client-feature-folders.md): code outside a feature
// imports it through its index, `@/features/<name>`, never a file inside it, statically or with import();
// the one exception is App.tsx's route table, which loads a feature's screen file (`…-page`) with import()
// so that the screen stays out of the first script. ui/ and lib/ are shared by every feature and import
// none; lib/ has no UI. Only tests use the test tooling of client/test/ (`@client-test/`).
const FEATURES_WHY = "see docs/decisions/0057-client-feature-folders.md";
const FEATURES = readdirSync(new URL("./client/src/features/", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const intoFeatureMessage = `Another feature is imported through its index, @/features/<name>, never a file inside it (${FEATURES_WHY})`;
const featureBoundaries = {
  /** Into a feature's files, but those of `own`. */
  intoFeature: (own) => [{ regex: own ? `^@/features/(?!${own}/)[^/]+/` : "^@/features/[^/]+/", message: intoFeatureMessage }],
  ownIndex: (own) => [{ regex: `^@/features/${own}$`, message: `Inside a feature, import the file itself: its index is for the others (${FEATURES_WHY})` }],
  shared: (folder) => [{ regex: "^@/(features|App)(/|$)", message: `${folder}/ is shared by every feature: it imports none (${FEATURES_WHY})` }],
  noUi: [{ regex: "^@/ui/", message: `lib/ is the client's shared code without UI: no ui/ component (${FEATURES_WHY})` }],
  testTooling: [{ regex: "^@client-test/", message: `Only tests use the client's test tooling, client/test/ (${FEATURES_WHY})` }],
};
// no-restricted-imports does not look at import(): a selector does. Its regular expression cannot hold a
// "/", written \x2F instead.
const SLASH = "\\x2F";
// The client is written against React's API and runs on Preact 11 through preact/compat (docs/decisions/0076).
// Preact 11 gives a function component its `ref` as a prop and renders a context as its provider, as React
// 19 does; what React 19 has and preact/compat has not is kept out here, in every client file.
const RUNTIME_WHY = "see docs/decisions/0076-preact-through-compat.md";
const REACT_19_ONLY = [
  {
    selector: `ImportDeclaration[source.value=/^react(-dom)?(${SLASH}|$)/] > ImportSpecifier[imported.name=/^(useActionState|useFormStatus|useOptimistic|requestFormReset|preconnect|prefetchDNS|preinit|preinitModule|preload|preloadModule|cache|captureOwnerStack|Activity|ViewTransition|unstable_.*)$/]`,
    message: `Not in preact/compat, which the client runs on (${RUNTIME_WHY})`,
  },
  {
    // preact/compat has them, as plain calls: a render wrapped in one does not yield, a deferred value is the value.
    selector: `ImportDeclaration[source.value=/^react(-dom)?(${SLASH}|$)/] > ImportSpecifier[imported.name=/^(startTransition|useTransition|useDeferredValue)$/]`,
    message: `A plain call in preact/compat, which the client runs on: it defers nothing (${RUNTIME_WHY})`,
  },
  {
    selector: "JSXOpeningElement[name.name=/^(form|button|input)$/] > JSXAttribute[name.name=/^(action|formAction)$/] > JSXExpressionContainer",
    message: `A form action is React 19's: handle onSubmit or onClick (${RUNTIME_WHY})`,
  },
  {
    selector: "JSXOpeningElement[name.name=/^(meta|link|base)$/], JSXElement:not(JSXElement[openingElement.name.name='svg'] JSXElement) > JSXOpeningElement[name.name='title']",
    message: `React 19 moves these into <head>, Preact draws them where they are: set them in an effect, as useDocumentTitle does (${RUNTIME_WHY})`,
  },
  {
    selector: "ImportDeclaration[source.value=/^preact/], ImportExpression[source.value=/^preact/]",
    message: `The client is written against react and react-dom, which vite.config.ts points at preact/compat (${RUNTIME_WHY})`,
  },
];
const restrictLazyImports = (regex, message = intoFeatureMessage) => ({
  "no-restricted-syntax": ["error", { selector: `ImportExpression[source.value=/${regex}/]`, message }, ...REACT_19_ONLY],
});
const lazyIntoFeature = (own) =>
  restrictLazyImports(`^@${SLASH}features${SLASH}${own ? `(?!${own}${SLASH})` : ""}[^${SLASH}]+${SLASH}`);
const CLIENT_TESTS = ["client/**/*.test.{ts,tsx}"];
/** A client folder's rules: its product files may not use the test tooling, its tests may. */
const clientArea = (files, patterns, lazyRule = lazyIntoFeature(null)) => [
  { files, ignores: CLIENT_TESTS, rules: { ...restrictImports(boundaries.client, patterns, featureBoundaries.testTooling), ...lazyRule } },
  ...files
    .filter((glob) => glob.endsWith("/**"))
    .map((glob) => ({ files: [`${glob}/*.test.{ts,tsx}`], rules: { ...restrictImports(boundaries.client, patterns), ...lazyRule } })),
];

export default tseslint.config(
  { ignores: ["dist/", "data/", "node_modules/", "test-output/", "coverage/", "bench/.cache/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "off",
    },
  },
  // Rules that read types (docs/decisions/0026-stricter-checks.md): TypeScript files only, each
  // answered by the TypeScript project that includes it; the few JS files are not type-checked.
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      // Only where it changes behaviour (a promise returned unawaited inside try escapes its catch).
      "@typescript-eslint/return-await": ["error", "error-handling-correctness-only"],
      // A default branch is a deliberate "anything else"; a switch without one must name every member.
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
    },
  },
  // No import cycles (docs/decisions/0059-no-import-cycles.md): a module of a cycle can be read while
  // undefined. Imports are resolved as each runtime's TypeScript project does (the client's @/ and @shared/).
  {
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs", ".cjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: ["tsconfig.server.json", "tsconfig.client.json", "tsconfig.e2e.json"], noWarnOnMultipleProjects: true })],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    files: ["client/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...clientArea(["client/**"], featureBoundaries.intoFeature(null)),
  { files: ["client/test/**"], rules: { ...restrictImports(boundaries.client, featureBoundaries.intoFeature(null)), ...lazyIntoFeature(null) } },
  // The route table: a screen's file with import() (the screen's own chunk), anything else through the index.
  ...clientArea(
    ["client/src/App.tsx"],
    featureBoundaries.intoFeature(null),
    restrictLazyImports(
      `^@${SLASH}features${SLASH}[^${SLASH}]+${SLASH}(?![^${SLASH}]+-page$)`,
      `App.tsx loads a feature's screen file (…-page) with import(); anything else comes through the feature's index (${FEATURES_WHY})`,
    ),
  ),
  ...clientArea(["client/src/ui/**"], featureBoundaries.shared("ui")),
  ...clientArea(["client/src/lib/**"], [featureBoundaries.shared("lib"), featureBoundaries.noUi]),
  ...FEATURES.flatMap((feature) =>
    clientArea([`client/src/features/${feature}/**`], [featureBoundaries.intoFeature(feature), featureBoundaries.ownIndex(feature)], lazyIntoFeature(feature)),
  ),
  { files: ["shared/**"], rules: restrictImports(boundaries.shared) },
  { files: ["server/**"], rules: restrictImports(boundaries.server, boundaries.serverProduct) },
  // Tests beside the server code use the helpers in test/.
  { files: ["server/**/*.test.ts"], rules: restrictImports(boundaries.server) },
  { files: ["server/**/*-route.ts", "server/**/*-routes.ts"], rules: restrictImports(boundaries.server, boundaries.serverProduct, boundaries.routes) },
  { files: ["server/**/*-repository.ts"], rules: restrictImports(boundaries.server, boundaries.serverProduct, boundaries.repositories) },
  { files: ["server/**/*-policy.ts"], rules: restrictImports(boundaries.server, boundaries.serverProduct, boundaries.policies) },
);
