import { describe, expect, it } from "vitest";
import { migrationUnderTest } from "../../test/helpers/migration-under-test.ts";

const { client, migrateToBefore, migrateRest } = await migrationUnderTest("0016_payout_batches");

describe("migration 0016 (payout batches)", () => {
  it("moves each payment's signed transaction to a payout transaction of its own, losing no payment", async () => {
    await migrateToBefore();
    await client.exec(`
      insert into users (id, username, password) values ('00000000-0000-4000-8000-000000000001', 'author', 'x');
      insert into books (title, language, author_id, file_name, file_path, file_size, mime_type)
        values ('Book', 'en', '00000000-0000-4000-8000-000000000001', 'b.pdf', 'b.pdf', 1, 'application/pdf');
      insert into payments (book_id, author_id, idempotency_key, amount, tokens_sent, payout_stage, status, nonce, signed_transaction, transaction_hashes, broadcast_at, chain_id, genesis_hash, token_address, wallet_address, transaction_hash)
        values
          (1, '00000000-0000-4000-8000-000000000001', 'book:1:milestone:1', 1, '1', 'broadcast', 'pending', 7, '0xraw7', '["0xa", "0xb"]', '2026-11-01T00:00:00Z', 137, '0xgenesis', '0xtoken', '0xwallet', null),
          (1, '00000000-0000-4000-8000-000000000001', 'book:1:milestone:2', 1, '1', 'confirming', 'completed', 8, '0xraw8', '["0xc"]', '2026-11-01T00:00:00Z', 137, '0xgenesis', '0xtoken', '0xwallet', '0xc'),
          (1, '00000000-0000-4000-8000-000000000001', 'book:1:milestone:3', 1, '1', 'queued', 'pending', null, null, '[]', null, null, null, null, null, null);
    `);

    await migrateRest();

    const { rows } = await client.query<{ key: string; stage: string; nonce: number | null; raw: string | null; hashes: string[] | null; broadcast: Date | null; chain: number | null }>(`
      select p.idempotency_key as key, p.payout_stage as stage, t.nonce, t.signed_transaction as raw, t.transaction_hashes as hashes, t.broadcast_at as broadcast, t.chain_id as chain
      from payments p left join payout_transactions t on t.id = p.payout_transaction_id order by p.id`);
    expect(rows).toEqual([
      { key: "book:1:milestone:1", stage: "broadcast", nonce: 7, raw: "0xraw7", hashes: ["0xa", "0xb"], broadcast: new Date("2026-11-01T00:00:00Z"), chain: 137 },
      { key: "book:1:milestone:2", stage: "confirming", nonce: 8, raw: "0xraw8", hashes: ["0xc"], broadcast: new Date("2026-11-01T00:00:00Z"), chain: 137 },
      { key: "book:1:milestone:3", stage: "queued", nonce: null, raw: null, hashes: null, broadcast: null, chain: null },
    ]);
  });
});
