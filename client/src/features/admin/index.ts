// The admin feature's public file (docs/decisions/0057-client-feature-folders.md): the dashboard's
// admin tab, the one index that declares something rather than re-export it.
import { lazy } from "react";

// Only the admin ever opens this tab, so nobody else downloads its code.
export const AdminPanel = lazy(() => import("./admin-panel").then((module) => ({ default: module.AdminPanel })));
