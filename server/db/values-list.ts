import { type SQL, sql } from "drizzle-orm";

/** Rows as a VALUES list of typed parameters: `(values ($1::integer, $2::text), …) as alias(id, hash)`. */
export function valuesList(alias: string, columns: Array<[name: string, type: string]>, rows: unknown[][]): SQL {
  const typed = rows.map((row) => sql`(${sql.join(row.map((value, index) => sql`${value}::${sql.raw(columns[index]![1])}`), sql`, `)})`);
  return sql`(values ${sql.join(typed, sql`, `)}) as ${sql.raw(alias)}(${sql.raw(columns.map(([name]) => name).join(", "))})`;
}
