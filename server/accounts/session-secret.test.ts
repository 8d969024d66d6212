import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { resolveSessionSecret } from "./session-secret.ts";

describe("resolveSessionSecret", () => {
  it("uses SESSION_SECRET when it is set", () => {
    const secret = "s".repeat(40);
    expect(resolveSessionSecret(loadConfig({ SESSION_SECRET: secret }))).toBe(secret);
  });

  it("makes one secret under DATA_DIR and keeps it across restarts", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "plume-secret-"));
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = resolveSessionSecret(config);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(resolveSessionSecret(config)).toBe(first);
    expect(statSync(join(dataDir, "session-secret")).mode & 0o777).toBe(0o600);
  });
});
