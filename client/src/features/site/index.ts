// The site feature's public file (docs/decisions/0057-client-feature-folders.md): the frame every screen
// is drawn in (header, menus, footer); its screens (landing page, signed-in home, info pages) are loaded
// by App.tsx with import().
export { AppLayout } from "./app-layout";
export { LandingFooterColumns } from "./site-footer";
export { useInterfaceLanguage } from "./language-select";
