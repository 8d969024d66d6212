import type { Db } from "../db/client.ts";
import { setDigestFrequency } from "./follows-repository.ts";

/**
 * A signed unsubscribe link turns the account's digest off at once (docs/product.md#follows). An
 * account since deleted has nothing to turn off: the answer is the same, and tells nothing more.
 */
export async function unsubscribeByToken(db: Db, userId: string): Promise<void> {
  await setDigestFrequency(db, userId, "off", new Date());
}
