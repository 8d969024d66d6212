import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("gives the embedded defaults when nothing is set", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 5000, dataDir: "./data", databaseUrl: undefined, isProduction: false });
  });

  it("names the variable of a bad value in one line", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/^Invalid setting PORT: /);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/Invalid setting DATABASE_URL/);
    expect(() => loadConfig({ ADMIN_EMAIL: "not-an-email" })).toThrow(/Invalid setting ADMIN_EMAIL/);
    expect(() => loadConfig({ SESSION_SECRET: "short" })).toThrow(/Invalid setting SESSION_SECRET/);
  });

  it("requires a session secret and a database in production", () => {
    expect(() => loadConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://db/plume" })).toThrow(
      /Invalid setting SESSION_SECRET: is required in production/,
    );
    expect(() => loadConfig({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) })).toThrow(
      /Invalid setting DATABASE_URL: is required in production/,
    );
  });

  it("treats an empty variable as unset and lower-cases the admin e-mail", () => {
    const config = loadConfig({ DATABASE_URL: "", ADMIN_EMAIL: "Admin@Plume.Test" });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.adminEmail).toBe("admin@plume.test");
  });
});

describe("reward settings", () => {
  it("default to the promotion of DECISIONS §1 and 1 PME per milestone", () => {
    expect(loadConfig({}).rewards).toEqual({ promoCutoff: new Date("2026-04-01T00:00:00Z"), tokensPerMilestone: 1, payoutHoldMs: 0 });
    const production = { NODE_ENV: "production", DATABASE_URL: "postgres://db/plume", SESSION_SECRET: "s".repeat(32) };
    expect(loadConfig(production).rewards.payoutHoldMs).toBe(24 * 60 * 60 * 1000);
    expect(loadConfig({ ...production, PAYOUT_HOLD_HOURS: "0.5" }).rewards.payoutHoldMs).toBe(30 * 60 * 1000);
  });

  it("refuse a cutoff that is not an ISO date-time", () => {
    expect(() => loadConfig({ PROMO_CUTOFF: "April 1st" })).toThrow(/Invalid setting PROMO_CUTOFF/);
    expect(() => loadConfig({ TOKENS_PER_MILESTONE: "0" })).toThrow(/Invalid setting TOKENS_PER_MILESTONE/);
  });
});
