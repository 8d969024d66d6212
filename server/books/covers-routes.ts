import type { FileStore } from "../storage/file-store.ts";
import { COVER_MIME_TYPES, type CoverType, coverTypeOfExtension, extensionOf } from "./file-types.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import { notFound } from "../http/errors.ts";
import { requestedRange } from "../http/send-file.ts";
import { isStoredName } from "../storage/file-store.ts";

const route = routesOf<{ store: FileStore }>();

/**
 * Covers are public; their names are unique per upload, so they can be cached forever. Sent from
 * either storage driver with what Express's sendFile gave: validators (a 304 to a cache that has the
 * cover), Range and HEAD.
 */
export const coverRoutes = routeGroup(
  "/covers",
  [
    route(
      {
        method: "GET",
        path: "/covers/:name",
        access: "public",
        summary: "A book's cover image (its name is unique per upload)",
        tag: "covers",
        answer: { status: 200, description: "The image (JPEG, PNG or WebP), whole or the range asked for (206); 304 to a cache that holds it." },
        errors: [404, 416],
      },
      async ({ req, res }, { store }) => {
        const name = req.params.name as string;
        const type = coverTypeOfExtension(extensionOf(name));
        if (!type || !isStoredName(name)) throw notFound("No such cover.");
        const file = await store.open("covers", name).catch(() => {
          throw notFound("No such cover.");
        });
        try {
          res.setHeader("Content-Type", COVER_MIME_TYPES[type as CoverType]);
          res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
          res.setHeader("X-Content-Type-Options", "nosniff");
          res.setHeader("Accept-Ranges", "bytes");
          res.setHeader("ETag", file.etag);
          res.setHeader("Last-Modified", file.lastModified.toUTCString());
          if (req.fresh) {
            res.status(304).end();
            return;
          }
          const range = requestedRange(req, res, file.size);
          if (range) {
            res.status(206);
            res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${file.size}`);
          }
          res.setHeader("Content-Length", String(range ? range.end - range.start + 1 : file.size));
          if (req.method === "HEAD") res.end();
          else await file.send(res, range);
        } finally {
          await file.close();
        }
      },
    ),
  ],
  // Anything else under /covers (a nested path, another method) is no cover either, never the app's page.
  { unmatched: (_req, _res, next) => next(notFound("No such cover.")) },
);
