import type { Queryable } from "../db/client.ts";
import { notices } from "../db/schema.ts";

export type NoticeRow = typeof notices.$inferSelect;

export async function insertNotice(db: Queryable, values: typeof notices.$inferInsert): Promise<NoticeRow> {
  const [notice] = await db.insert(notices).values(values).returning();
  return notice!;
}
