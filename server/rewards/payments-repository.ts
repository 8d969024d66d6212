import { desc, eq } from "drizzle-orm";
import type { PaymentView } from "../../shared/wallet.ts";
import type { Queryable } from "../db/client.ts";
import { books, payments } from "../db/schema.ts";

/** An author's payments, newest first, with the title of the book each one rewards. */
export async function listAuthorPayments(db: Queryable, authorId: string): Promise<PaymentView[]> {
  const rows = await db
    .select({
      id: payments.id,
      amount: payments.amount,
      status: payments.status,
      triggeredAt: payments.triggeredAt,
      completedAt: payments.completedAt,
      transactionHash: payments.transactionHash,
      bookId: payments.bookId,
      bookTitle: books.title,
      kind: payments.kind,
      milestone: payments.milestone,
    })
    .from(payments)
    .leftJoin(books, eq(books.id, payments.bookId))
    .where(eq(payments.authorId, authorId))
    .orderBy(desc(payments.triggeredAt), desc(payments.id));
  return rows.map((row) => ({
    ...row,
    triggeredAt: row.triggeredAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  }));
}
