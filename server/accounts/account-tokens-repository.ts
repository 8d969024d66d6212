import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { accountTokens } from "../db/schema.ts";

export type AccountToken = typeof accountTokens.$inferSelect;

export type AccountTokenPurpose = "verify-email" | "reset-password";

export async function insertAccountToken(
  db: Queryable,
  values: { userId: string; purpose: AccountTokenPurpose; tokenHash: string; email: string | null; expiresAt: Date },
): Promise<void> {
  await db.insert(accountTokens).values(values);
}

/** The token with this hash and purpose, unlocked: to learn what to lock first. */
export async function findAccountToken(db: Queryable, tokenHash: string, purpose: AccountTokenPurpose): Promise<AccountToken | undefined> {
  const [token] = await db
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, tokenHash), eq(accountTokens.purpose, purpose)));
  return token;
}

/**
 * The token with this hash and purpose, locked until the transaction ends, so two requests spending
 * the same link are served one after the other and the second finds it used.
 */
export async function lockAccountToken(tx: Queryable, tokenHash: string, purpose: AccountTokenPurpose): Promise<AccountToken | undefined> {
  const [token] = await tx
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, tokenHash), eq(accountTokens.purpose, purpose)))
    .for("update");
  return token;
}

/** Spends every unused token of this purpose for the account: the one just used and any other link still out. */
export async function spendAccountTokens(tx: Queryable, userId: string, purpose: AccountTokenPurpose, at: Date): Promise<void> {
  await spendTokensOfAccounts(tx, [userId], purpose, at);
}

/** Spends every unused token of this purpose for these accounts (a claim dropped takes its links with it). */
export async function spendTokensOfAccounts(tx: Queryable, userIds: string[], purpose: AccountTokenPurpose, at: Date): Promise<void> {
  if (userIds.length === 0) return;
  await tx
    .update(accountTokens)
    .set({ usedAt: at })
    .where(and(inArray(accountTokens.userId, userIds), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
}

export async function deleteAccountTokensOf(tx: Queryable, userId: string): Promise<void> {
  await tx.delete(accountTokens).where(eq(accountTokens.userId, userId));
}
