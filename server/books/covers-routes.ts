import type { FileStore } from "../storage/file-store.ts";
import { COVER_MIME_TYPES, type CoverType, coverTypeOfExtension, extensionOf } from "./file-types.ts";
import { GuardedRouter } from "../http/access.ts";
import { notFound } from "../http/errors.ts";

/** Covers are public; their names are unique per upload, so they can be cached forever. */
export function coverRoutes(store: FileStore, adminEmail: string | undefined): GuardedRouter {
  const routes = new GuardedRouter("/covers", adminEmail);
  routes.get("/:name", (req, res, next) => {
    const name = req.params.name as string;
    const type = coverTypeOfExtension(extensionOf(name));
    let path: string;
    try {
      if (!type) throw new Error("not a cover type");
      path = store.pathOf("covers", name);
    } catch {
      return next(notFound("No such cover."));
    }
    res.sendFile(
      path,
      {
        headers: {
          "Content-Type": COVER_MIME_TYPES[type as CoverType],
          "Cache-Control": "public, max-age=31536000, immutable",
          "X-Content-Type-Options": "nosniff",
        },
      },
      (error) => error && next(notFound("No such cover.")),
    );
  });
  // Anything else under /covers (a nested path, another method) is no cover either, never the app's page.
  routes.router.use((_req, _res, next) => next(notFound("No such cover.")));
  return routes;
}
