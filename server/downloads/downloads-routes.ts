import { authorIdSchema, bookIdSchema } from "../../shared/book-schemas.ts";
import { findVisibleBook, viewerOf } from "../books/books-policy.ts";
import { extensionOf } from "../books/file-types.ts";
import type { RewardSettings } from "../config.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { notFound } from "../http/errors.ts";
import { openFileToSend, sendFileBody } from "../http/send-file.ts";
import { validate } from "../http/validate.ts";
import { countingAddressOf } from "../security/client-address.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import type { FileStore } from "../storage/file-store.ts";
import { readAuthorStats } from "./author-stats-service.ts";
import { downloadFileName } from "./download-name.ts";
import { recordDownload } from "./downloads-service.ts";

interface DownloadsRoutesDeps {
  db: Db;
  store: FileStore;
  adminEmail: string | undefined;
  countedPerIpPerBookPerDay: number;
  rewards: RewardSettings;
  /** Called when a download made payments owed, so they go out without waiting a round. */
  onPaymentsOwed: () => void;
  limits: AbuseLimits;
}

/** A book's download (where downloads are counted) and an author's monthly counts. */
export function downloadsRoutes(deps: DownloadsRoutesDeps): GuardedRouter {
  const { db, store, limits, adminEmail } = deps;
  return new GuardedRouter("/api", adminEmail)
    .post("/books/:id/download", validate("params", bookIdSchema), limits.download, async (req, res) => {
      const listed = await findVisibleBook(db, (res.locals.params as { id: number }).id, viewerOf(req, adminEmail));
      // A download that cannot be served must not count: the file is opened before the transaction.
      const file = await openFileToSend(store.pathOf("books", listed.filePath)).catch(() => {
        throw notFound("The file of this book is missing.");
      });
      try {
        const { book, paymentsOwed } = await recordDownload(db, {
          bookId: listed.id,
          readerId: req.user!.id,
          ipAddress: req.ip && countingAddressOf(req.ip),
          at: new Date(),
          channel: "download",
          countedPerIpPerBookPerDay: deps.countedPerIpPerBookPerDay,
          rewards: deps.rewards,
        });
        if (paymentsOwed > 0) deps.onPaymentsOwed();
        res.attachment(downloadFileName(book.title, extensionOf(book.filePath)));
        res.setHeader("Content-Type", book.mimeType);
        res.setHeader("Content-Length", String(file.size));
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Cache-Control", "private, no-store");
        await sendFileBody(res, file);
      } finally {
        await file.handle.close();
      }
    })
    .get("/authors/:id/stats", validate("params", authorIdSchema), async (_req, res) => {
      res.json(await readAuthorStats(db, (res.locals.params as { id: string }).id, new Date()));
    });
}
