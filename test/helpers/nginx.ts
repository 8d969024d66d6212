import { type ChildProcess, execFile, spawn } from "node:child_process";
import { accessSync, chmodSync, constants, createWriteStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { NGINX_PATH } from "../../scripts/ensure-test-tools.ts";
import { freePort } from "./free-port.ts";

export { NGINX_PATH };

const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;

export function nginxInstalled(): boolean {
  try {
    accessSync(NGINX_PATH, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** "nginx/1.22.1". */
export async function nginxVersion(): Promise<string> {
  const { stderr } = await promisify(execFile)(NGINX_PATH, ["-v"]);
  return stderr.trim().replace(/^nginx version: /, "");
}

export interface RunningNginx {
  /** http://127.0.0.1:port */
  url: string;
  /** The master process (its workers are its children). */
  pid: number;
  stop(): Promise<void>;
}

export interface NginxOptions {
  /** A folder of its own: the configuration, the pid file, its temporary files. Removed by the caller. */
  scratch: string;
  /** What goes inside `http { }` besides the temporary paths, with `{port}` where the server listens. */
  http: string;
  /** Asked of the port until it answers 2xx: nginx prints no line saying it is ready. */
  probePath: string;
  /** Where its error log (its only output) goes. */
  logFile: string;
  workerProcesses?: number | "auto";
  /** Where it listens; a free port when unset. Given when the servers behind it must know their address beforehand (PUBLIC_URL). */
  port?: number;
}

/**
 * nginx as a test or a benchmark needs it: on a free loopback port, in the foreground, with every
 * file it writes (pid, temporary request and response bodies) in `scratch`, never in the system's
 * /run or /var/lib/nginx, so it runs beside the machine's own nginx, or without one set up.
 */
export async function startNginx(options: NginxOptions): Promise<RunningNginx> {
  const port = options.port ?? (await freePort());
  // Run by root, nginx's workers are `nobody`: they must be able to reach their temporary folders.
  chmodSync(options.scratch, 0o755);
  const temporaryPaths = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${join(options.scratch, `${kind}-temp`)};`).join("\n");
  const configFile = join(options.scratch, "nginx.conf");
  writeFileSync(
    configFile,
    `worker_processes ${options.workerProcesses ?? 1};
events { worker_connections 1024; }
http {
${temporaryPaths}
${options.http.replaceAll("{port}", String(port))}
}
`,
  );
  const child = spawn(NGINX_PATH, ["-p", options.scratch, "-c", configFile, "-e", "stderr", "-g", `daemon off; pid ${join(options.scratch, "nginx.pid")};`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = createWriteStream(options.logFile);
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx stopped at start (exit ${child.exitCode}); see ${options.logFile}`);
    const answer = await fetch(`${url}${options.probePath}`).catch(() => undefined);
    await answer?.arrayBuffer();
    if (answer?.ok) break;
    if (Date.now() > deadline) {
      await stop(child, exited);
      throw new Error(`nginx did not answer ${options.probePath} within ${START_TIMEOUT_MS} ms; see ${options.logFile}`);
    }
    await sleep(50);
  }
  return { url, pid: child.pid!, stop: () => stop(child, exited) };
}

/** SIGTERM: nginx's fast stop (it closes its connections at once); SIGKILL if it does not end. */
async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
