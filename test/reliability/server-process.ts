import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { projectRoot } from "../../server/paths.ts";
import { freePort } from "../helpers/free-port.ts";
import { LIFTED_RATE_LIMITS, TEST_BACKGROUND_WORK, TEST_PASSWORD_HASHING, TEST_COPY_CHECKS } from "../helpers/test-app.ts";

/** The server's script (API and payout worker), below the project root. */
export const API_SERVER_SOURCE = "test/reliability/api-server.ts";
/**
 * Where a test run's bundle of that script is, when it has one: the system project's global setup
 * bundles it once per run (test/helpers/system-server-bundle.ts, docs/decisions/0087).
 */
export const BUNDLED_SERVER_VARIABLE = "PLUME_BUNDLED_SERVER";
const READY_LINE = /Plume is ready on https?:\/\/[^:]+:(\d+)/;
/** Enough of the start-up output to explain a failed start. */
const OUTPUT_KEPT = 4_000;

/** A throwaway server's settings: its own data folder and chain port, JSON logs, cheap hashing, no abuse limits. */
export async function throwawayServerSettings(dataDir: string): Promise<Record<string, string>> {
  return {
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: "0",
    DATA_DIR: dataDir,
    LOCAL_CHAIN_PORT: String(await freePort()),
    LOG_FORMAT: "json",
    ...TEST_PASSWORD_HASHING,
    ...LIFTED_RATE_LIMITS,
    ...TEST_BACKGROUND_WORK,
    ...TEST_COPY_CHECKS,
  };
}

/**
 * The real Plume server (API and payout worker) as a child process of its own, so it can be killed
 * with SIGKILL at any instant, as a crash or an OOM kill would, and started again on the same data.
 */
export class ServerProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    /** Resolves when the process has ended, however it ended. */
    readonly exited: Promise<void>,
  ) {}

  /**
   * Starts the server with exactly these settings (nothing leaks in from the harness's own
   * environment); everything it prints goes to `onOutput`. Unless `nodeArgs` say how to run it (the
   * benchmarks' bundle: bench/lib/server-bundle.ts), it runs from the test run's bundle, or from the
   * sources with tsx where the run has none.
   */
  static async start(settings: Record<string, string>, onOutput: (text: string) => void, startTimeoutMs = 240_000, nodeArgs: readonly string[] = defaultNodeArgs()): Promise<ServerProcess> {
    const child = spawn(process.execPath, [...nodeArgs], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TMPDIR: process.env.TMPDIR ?? "/tmp", ...settings },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
      onOutput(chunk.toString());
    };
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`The server did not start within ${startTimeoutMs} ms: ${tail(output)}`));
      }, startTimeoutMs);
      const onExit = (code: number | null, signal: string | null) => {
        clearTimeout(timer);
        reject(new Error(`The server stopped at start (${signal ?? `exit ${code}`}): ${tail(output)}`));
      };
      child.once("exit", onExit);
      child.stdout!.on("data", () => {
        const ready = READY_LINE.exec(output);
        if (!ready) return;
        clearTimeout(timer);
        child.off("exit", onExit);
        resolve(Number(ready[1]));
      });
    });
    return new ServerProcess(child, `http://127.0.0.1:${port}`, exited);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** A crash: no shutdown code runs, open transactions and requests are cut where they are. */
  async kill(): Promise<void> {
    if (this.running) this.child.kill("SIGKILL");
    await this.exited;
  }

  /**
   * A hung process, or a host cut off from the network: SIGSTOP leaves it alive to the kernel (its pid,
   * its sockets) but it answers nothing and renews nothing. `kill` still ends it.
   */
  freeze(): void {
    if (this.running) this.child.kill("SIGSTOP");
  }

  /** A clean stop (SIGTERM: the server closes its worker, connections and database); says what went wrong, if anything. */
  async stop(timeoutMs = 30_000): Promise<string | null> {
    if (!this.running) return `it had already ended (${this.child.signalCode ?? `exit ${this.child.exitCode}`})`;
    let timedOut = false;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => {
      timedOut = true;
      this.child.kill("SIGKILL");
    }, timeoutMs);
    await this.exited;
    clearTimeout(timer);
    if (timedOut) return `it was still running ${timeoutMs} ms after SIGTERM`;
    return this.child.exitCode === 0 ? null : `it ended with ${this.child.signalCode ?? `exit ${this.child.exitCode}`}`;
  }
}

function defaultNodeArgs(): readonly string[] {
  const bundled = process.env[BUNDLED_SERVER_VARIABLE];
  return bundled ? [bundled] : ["--import", "tsx", join(projectRoot, API_SERVER_SOURCE)];
}

function tail(output: string): string {
  return output.trim().split("\n").slice(-5).join(" | ");
}
