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
  /**
   * Starts it in a process group of its own, which `stop` signals whole, as Ctrl-C in a terminal
   * does: `npm start` passes a signal to its shell, which does not pass it on to the server.
   */
  ownProcessGroup?: boolean;
}

const baseEnvironment = () => ({ PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TMPDIR: process.env.TMPDIR ?? "/tmp" });

function signalChild(child: ChildProcess, signal: NodeJS.Signals, wholeGroup: boolean): void {
  if (!wholeGroup) {
    child.kill(signal);
    return;
  }
  try {
    process.kill(-child.pid!, signal);
  } catch (error) {
    // The group is gone already.
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

export async function stopChild(child: ChildProcess, timeoutMs = 15_000, { wholeGroup = false } = {}): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  signalChild(child, wholeGroup ? "SIGINT" : "SIGTERM", wholeGroup);
  const timer = setTimeout(() => signalChild(child, "SIGKILL", wholeGroup), timeoutMs);
  await exited;
  clearTimeout(timer);
}

/** Starts the process and resolves once it printed its ready line; a start that fails says why. */
export async function startReadyProcess(options: ReadyProcessOptions): Promise<ReadyProcess> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...baseEnvironment(), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.ownProcessGroup ?? false,
  });
  const log = createWriteStream(options.logFile);
  let recent = "";
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      signalChild(child, "SIGKILL", options.ownProcessGroup ?? false);
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
    stop: () => stopChild(child, undefined, { wholeGroup: options.ownProcessGroup }),
  };
}
