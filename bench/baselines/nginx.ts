import { execFile, spawn } from "node:child_process";
import { createWriteStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { freePort } from "../../test/helpers/free-port.ts";
import { type ReadyProcess, stopChild } from "../lib/ready-process.ts";

/**
 * nginx as the bare peer of a download: static files as fast as a web server sends them (sendfile,
 * no compression, no logging), from a configuration of its own in a scratch folder.
 */

const run = promisify(execFile);
const START_TIMEOUT_MS = 10_000;

export async function nginxVersion(): Promise<string> {
  try {
    const { stderr } = await run("nginx", ["-v"]);
    return stderr.trim();
  } catch {
    throw new Error("nginx is not installed; the downloads benchmark compares with it (apt-get install -y nginx-light)");
  }
}

function configuration(folder: string, port: number, scratch: string): string {
  return `daemon off;
worker_processes auto;
pid ${join(scratch, "nginx.pid")};
error_log stderr notice;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  gzip off;
  types { application/pdf pdf; }
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:${port};
    root ${folder};
  }
}
`;
}

/**
 * Serves `folder` on a free port until stopped; ready once it answers `probePath`. nginx prints no
 * line saying where it listens, so readiness is asked of the port itself.
 */
export async function startNginx(folder: string, probePath: string, options: { scratch: string; logFile: string }): Promise<ReadyProcess> {
  const port = await freePort();
  const configFile = join(options.scratch, "nginx.conf");
  writeFileSync(configFile, configuration(folder, port, options.scratch));
  const child = spawn("nginx", ["-p", options.scratch, "-c", configFile], { stdio: ["ignore", "pipe", "pipe"] });
  const log = createWriteStream(options.logFile);
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx stopped at start (exit ${child.exitCode}); see ${options.logFile}`);
    const answer = await fetch(`${url}${probePath}`, { method: "HEAD" }).catch(() => undefined);
    if (answer?.ok) break;
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`nginx did not answer ${probePath} within ${START_TIMEOUT_MS} ms; see ${options.logFile}`);
    }
    await sleep(50);
  }
  return { url, pid: child.pid!, stop: () => stopChild(child) };
}
