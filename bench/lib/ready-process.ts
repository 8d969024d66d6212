import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { once } from "node:events";

/** A server under test in a process of its own, started and ready to take requests. */
export interface ReadyProcess {
  /** Where it listens, as its ready line announced it (http://127.0.0.1:port). */
  url: string;
  /** Its process id, to sample its memory (/proc/<pid>/status). */
  pid: number;
  stop(): Promise<void>;
}

export interface ReadyProcessOptions {
  /** For messages: "plume (postgres)", "calibre-server". */
  name: string;
  command: string;
  args: string[];
  /** The whole environment of the process: nothing leaks in from the runner's own. */
  env: Record<string, string>;
  cwd: string;
  /** Matches the line that says it is ready; its first group is the port. */
  readyLine: RegExp;
  /** Everything the process prints goes here (kept out of the runner's output). */
  logFile: string;
  startTimeoutMs?: number;
}

const baseEnvironment = () => ({ PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TMPDIR: process.env.TMPDIR ?? "/tmp" });

export async function stopChild(child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  await exited;
  clearTimeout(timer);
}

/** Starts the process and resolves once it printed its ready line; a start that fails says why. */
export async function startReadyProcess(options: ReadyProcessOptions): Promise<ReadyProcess> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...baseEnvironment(), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = createWriteStream(options.logFile);
  let recent = "";
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${options.name} did not start within ${options.startTimeoutMs ?? 120_000} ms; see ${options.logFile}`));
    }, options.startTimeoutMs ?? 120_000);
    const onExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} stopped at start (${signal ?? `exit ${code}`}): ${recent.trim().split("\n").slice(-3).join(" | ")}`));
    };
    child.once("exit", onExit);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} could not start: ${error.message}`));
    });
    const watch = (chunk: Buffer) => {
      log.write(chunk);
      recent = (recent + chunk.toString()).slice(-2_000);
      const ready = options.readyLine.exec(recent);
      if (!ready) return;
      clearTimeout(timer);
      child.off("exit", onExit);
      child.stdout!.off("data", watch);
      child.stderr!.off("data", watch);
      child.stdout!.pipe(log, { end: false });
      child.stderr!.pipe(log, { end: false });
      resolve(ready[1]!);
    };
    child.stdout!.on("data", watch);
    child.stderr!.on("data", watch);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () => stopChild(child),
  };
}
