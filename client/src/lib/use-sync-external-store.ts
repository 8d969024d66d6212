// What `use-sync-external-store/shim` resolves to (vite.config.ts): React's own hook, which React 19 has.
export { useSyncExternalStore } from "react";
