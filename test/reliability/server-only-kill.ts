import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localChainsOnPort } from "../../server/chain/local-chain.ts";
import { freePort } from "../helpers/free-port.ts";
import { LIFTED_RATE_LIMITS, TEST_BACKGROUND_WORK, TEST_COPY_CHECKS } from "../helpers/test-app.ts";
import { ServerProcess } from "./server-process.ts";

export interface ServerOnlyKillReport {
  kills: number;
  /** From the SIGKILL to "ready" of the next start, each time. */
  restartMs: number[];
  violations: string[];
}

const PASSWORD = "reliability-pass";

async function call(server: ServerProcess, path: string, body: unknown): Promise<number> {
  const response = await fetch(`${server.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  await response.arrayBuffer();
  return response.status;
}

/**
 * The embedded default (`npm start`: PGlite in the data folder, a local chain of its own) killed
 * with SIGKILL — the server process only, as an out-of-memory kill does — and started again at once
 * on the same folder, `kills` times. Each start must come up (the data-folder lock and the chain's
 * port free again), leave exactly one local chain on its port, and keep the accounts; a clean stop
 * at the end must leave none.
 */
export async function serverOnlyKillRun(kills: number, log: (line: string) => void = () => {}): Promise<ServerOnlyKillReport> {
  const dataDir = mkdtempSync(join(tmpdir(), "plume-server-kill-"));
  const chainPort = await freePort();
  const settings = {
    NODE_ENV: "development",
    HOST: "127.0.0.1",
    PORT: "0",
    DATA_DIR: dataDir,
    LOCAL_CHAIN_PORT: String(chainPort),
    SESSION_SECRET: "reliability-session-secret-".padEnd(48, "x"),
    ...LIFTED_RATE_LIMITS,
    ...TEST_BACKGROUND_WORK,
    ...TEST_COPY_CHECKS,
  };
  const report: ServerOnlyKillReport = { kills: 0, restartMs: [], violations: [] };
  let output = "";
  const start = () => ServerProcess.start(settings, (text) => (output = (output + text).slice(-4000)));
  let server = await start();
  try {
    const account = { firstName: "Kai", lastName: "Kill", username: "kai_kill", email: "kai@reliability.test", password: PASSWORD, confirmPassword: PASSWORD };
    if ((await call(server, "/api/auth/register", account)) !== 201) throw new Error("could not register the run's account");
    for (let kill = 1; kill <= kills; kill += 1) {
      const killedAt = performance.now();
      await server.kill();
      report.kills += 1;
      try {
        server = await start();
      } catch (error) {
        report.violations.push(`kill ${kill}: the next start failed: ${(error as Error).message}`);
        return report;
      }
      report.restartMs.push(Math.round(performance.now() - killedAt));
      const chains = localChainsOnPort(chainPort);
      if (chains.length !== 1) report.violations.push(`kill ${kill}: ${chains.length} local chains on port ${chainPort} after the restart (pids ${chains.join(", ")})`);
      const signIn = await call(server, "/api/auth/login", { username: account.username, password: PASSWORD });
      if (signIn !== 200) report.violations.push(`kill ${kill}: the account could not sign in after the restart (${signIn})`);
      log(`kill ${kill}: up again in ${report.restartMs.at(-1)} ms, ${chains.length} chain, sign-in ${signIn}`);
    }
    const stopped = await server.stop();
    if (stopped) report.violations.push(`the clean stop failed: ${stopped}`);
    for (let waited = 0; localChainsOnPort(chainPort).length > 0 && waited < 5_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    const left = localChainsOnPort(chainPort);
    if (left.length > 0) report.violations.push(`a clean stop left ${left.length} local chain(s) running (pids ${left.join(", ")})`);
    return report;
  } finally {
    await server.kill();
    for (const pid of localChainsOnPort(chainPort)) process.kill(pid, "SIGKILL");
    if (report.violations.length === 0) rmSync(dataDir, { recursive: true, force: true });
    else log(`data folder kept at ${dataDir}; the server's last output: ${output.trim().split("\n").slice(-3).join(" | ")}`);
  }
}
