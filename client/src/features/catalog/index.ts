// The catalog feature's public file (docs/decisions/0057-client-feature-folders.md). The catalog comes
// with the first script (docs/decisions/0016): its screen is the one App.tsx imports as is.
export { CatalogPage } from "./catalog-page";
