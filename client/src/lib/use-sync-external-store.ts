// What `use-sync-external-store/shim` resolves to in the build (vite.config.ts): React's own hook.
export { useSyncExternalStore } from "react";
