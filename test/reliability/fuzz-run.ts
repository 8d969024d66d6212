import { spawnSync } from "node:child_process";
import { projectRoot } from "../../server/paths.ts";
import type { DatabaseBackend } from "./crash-harness.ts";

/**
 * The fuzz test (server/fuzz.api.test.ts) at soak size: the same routes, personas and properties as
 * in `npm test`, with as many generated cases as asked, on the chosen database. True when no case failed.
 */
export function fuzzRun(cases: number, seed: number, backend: DatabaseBackend): boolean {
  const project = backend.kind === "postgres" ? "api-postgres" : "api";
  // Without a PostgreSQL URL the file runs in the PGlite project (vitest.config.ts gives it to one project only).
  const { TEST_DATABASE_URL: _ignored, ...environment } = process.env;
  const result = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--project", project, "server/fuzz.api.test.ts"], {
    cwd: projectRoot,
    stdio: "inherit",
    env: {
      ...environment,
      FUZZ_RUNS: String(cases),
      FUZZ_SEED: String(seed),
      ...(backend.kind === "postgres" ? { TEST_DATABASE_URL: backend.serverUrl } : {}),
    },
  });
  return result.status === 0;
}
