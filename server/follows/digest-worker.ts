import { DIGEST_MAX_ITEMS, DIGEST_UNSUBSCRIBE_PATH } from "../../shared/follows.ts";
import type { Db } from "../db/client.ts";
import type { Mailer } from "../mail/mailer.ts";
import { logger } from "../system/logger.ts";
import { composeDigestMail } from "./digest-mail.ts";
import { type DigestReader, claimDigest, listDigestCandidates, releaseDigest } from "./follows-repository.ts";
import { listFollowingItems } from "./follows-service.ts";
import type { UnsubscribeTokens } from "./unsubscribe-tokens.ts";

const MINUTE_MS = 60_000;
const WEEK_MS = 7 * 24 * 60 * MINUTE_MS;

/**
 * What arrived within this long of now waits for the next round: books an author publishes together
 * go out in one mail, and a book whose transaction has not committed yet is not passed over
 * (docs/decisions/0101).
 */
export const DIGEST_SETTLE_MS = 2 * MINUTE_MS;
/** How often a server looks for digests due: an instant digest leaves within about three minutes. */
export const DIGEST_ROUND_EVERY_MS = MINUTE_MS;
/** Nothing older than this is mailed, whatever a reader's cursor says: a digest is news (docs/decisions/0101). */
export const DIGEST_LOOKBACK_MS = 14 * 24 * 60 * MINUTE_MS;
/** Readers read at once per page of a round. */
const CANDIDATES_PER_PAGE = 100;

export interface DigestDeps {
  db: Db;
  mailer: Mailer;
  origin: string;
  productName: string;
  unsubscribeTokens: UnsubscribeTokens;
}

export const unsubscribeLinkFor = ({ origin, unsubscribeTokens }: Pick<DigestDeps, "origin" | "unsubscribeTokens">, userId: string) =>
  `${origin}${DIGEST_UNSUBSCRIBE_PATH}?token=${unsubscribeTokens.tokenFor(userId)}`;

async function sendDigest(deps: DigestDeps, reader: DigestReader, through: Date, oldest: Date): Promise<boolean> {
  // The cursor of a first digest is the follow's own date (docs/product.md#follows): nothing older than the follow is mailed.
  const after = reader.digestSentThrough && reader.digestSentThrough > oldest ? reader.digestSentThrough : oldest;
  const items = await listFollowingItems(deps.db, reader, { after, through, sinceFollow: true, limit: DIGEST_MAX_ITEMS + 1 });
  if (items.length === 0) return false;
  if (!(await claimDigest(deps.db, reader, through))) return false;
  const shown = items.slice(0, DIGEST_MAX_ITEMS);
  const message = composeDigestMail({
    to: reader.email,
    language: reader.language,
    frequency: reader.digestFrequency === "instant" ? "instant" : "weekly",
    values: { productName: deps.productName, name: reader.firstName ?? "" },
    items: shown,
    more: items.length - shown.length,
    origin: deps.origin,
    unsubscribeLink: unsubscribeLinkFor(deps, reader.id),
  });
  if (await deps.mailer.send(message)) return true;
  await releaseDigest(deps.db, reader.id, through, reader.digestSentThrough);
  return false;
}

/**
 * One round of digests at `now` (docs/product.md#follows): every reader due and with something new is
 * claimed, then mailed. Several servers may run rounds at once on one database; a reader's claim moves
 * their cursor from the value read, so only one of them mails (docs/decisions/0101). Answers how many
 * digests this round sent. Tests call it with the moment they choose.
 */
export async function runDigestRound(deps: DigestDeps, now: Date): Promise<number> {
  const through = new Date(now.getTime() - DIGEST_SETTLE_MS);
  const weekAgo = new Date(now.getTime() - WEEK_MS);
  const oldest = new Date(now.getTime() - DIGEST_LOOKBACK_MS);
  let sent = 0;
  let afterId: string | null = null;
  for (;;) {
    const readers = await listDigestCandidates(deps.db, { through, weekAgo, oldest, afterId, limit: CANDIDATES_PER_PAGE });
    for (const reader of readers) {
      try {
        if (await sendDigest(deps, reader, through, oldest)) sent += 1;
      } catch (error) {
        logger.error({ component: "digests", err: error }, "a digest was not sent");
      }
    }
    if (readers.length < CANDIDATES_PER_PAGE) return sent;
    afterId = readers.at(-1)!.id;
  }
}

/** Runs a digest round every minute, one at a time, until closed. */
export class DigestWorker {
  private readonly timer: NodeJS.Timeout;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly deps: DigestDeps,
    everyMs = DIGEST_ROUND_EVERY_MS,
  ) {
    this.timer = setInterval(() => this.tick(), everyMs);
    this.timer.unref();
  }

  close(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    if (this.running) return;
    this.running = runDigestRound(this.deps, new Date())
      .catch((error: unknown) => logger.error({ component: "digests", err: error }, "a digest round failed"))
      .finally(() => (this.running = undefined));
  }
}
