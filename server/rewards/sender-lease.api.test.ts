import { spawn } from "node:child_process";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../db/client.ts";
import { payoutLeases } from "../db/schema.ts";
import { openTestDatabase } from "../../test/helpers/test-database.ts";
import { holdSenderLease, newSenderLeaseHolder, renewSenderLease } from "./sender-lease-repository.ts";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const TTL_MS = 60_000;
let walletCounter = 0;
const newWallet = () => `0x${(++walletCounter).toString(16).padStart(40, "0")}`;

/** The pid of a process of this host that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

/** A lease row as another process left it, still unexpired. */
async function leaseHeldBy(holder: string): Promise<string> {
  const wallet = newWallet();
  await database.db.insert(payoutLeases).values({ wallet, holder, expiresAt: new Date(Date.now() + TTL_MS) });
  return wallet;
}

describe("the payout sender lease", () => {
  it("is renewed by its holder and refused to another live process until it runs out", async () => {
    const wallet = newWallet();
    const mine = newSenderLeaseHolder();
    expect(await holdSenderLease(database.db, wallet, mine, TTL_MS)).toBe(true);
    expect(await holdSenderLease(database.db, wallet, mine, TTL_MS)).toBe(true);
    expect(await holdSenderLease(database.db, wallet, newSenderLeaseHolder(), TTL_MS)).toBe(false);
  });

  it("is renewed alone by its holder, never taken by a renewal (what an idle sender does)", async () => {
    const wallet = newWallet();
    const mine = newSenderLeaseHolder();
    expect(await renewSenderLease(database.db, wallet, mine, TTL_MS)).toBe(false);
    expect(await holdSenderLease(database.db, wallet, mine, TTL_MS)).toBe(true);
    expect(await renewSenderLease(database.db, wallet, mine, TTL_MS)).toBe(true);
    expect(await renewSenderLease(database.db, wallet, newSenderLeaseHolder(), TTL_MS)).toBe(false);
    expect(await holdSenderLease(database.db, wallet, newSenderLeaseHolder(), TTL_MS)).toBe(false);
  });

  it("is taken over at once from a process of this host that died holding it (a crash, then a restart)", async () => {
    const wallet = await leaseHeldBy(`${hostname().slice(0, 50)}:${await deadPid()}:crashed-server`);
    expect(await holdSenderLease(database.db, wallet, newSenderLeaseHolder(), TTL_MS)).toBe(true);
  });

  it("is left to a live process of this host", async () => {
    const wallet = await leaseHeldBy(`${hostname().slice(0, 50)}:${process.ppid}:other-server`);
    expect(await holdSenderLease(database.db, wallet, newSenderLeaseHolder(), TTL_MS)).toBe(false);
  });

  // Embedded PGlite reads this very process's clock: only a database server has a clock of its own.
  it.skipIf(process.env.PLUME_TEST_BACKEND !== "postgres")("lasts by the database's clock, not by the holder's: a host whose clock runs behind still holds it", async () => {
    const wallet = newWallet();
    const behind = newSenderLeaseHolder();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 10 * TTL_MS });
    try {
      expect(await holdSenderLease(database.db, wallet, behind, TTL_MS)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    expect(await holdSenderLease(database.db, wallet, newSenderLeaseHolder(), TTL_MS)).toBe(false);
  });

  it("is left to a process of another host, whose liveness cannot be seen from here", async () => {
    const wallet = await leaseHeldBy(`another-host.example:${await deadPid()}:remote-server`);
    expect(await holdSenderLease(database.db, wallet, newSenderLeaseHolder(), TTL_MS)).toBe(false);
  });
});
