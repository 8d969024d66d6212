import { readFileSync } from "node:fs";

/**
 * A process as it can be recognised later: its pid, and when it started (clock ticks since boot,
 * from /proc). A pid alone can name another process once its own has ended; a pid and a start time
 * never do. Where /proc is missing, the start time is unknown and the pid is all there is.
 */
export interface ProcessMark {
  pid: number;
  startTime?: string;
}

/** Whether a process of this machine exists (a dead one's locks and leases can be taken over). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The start time of a living process; undefined for one that is gone or dying (a zombie). */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const [state, , , , , , , , , , , , , , , , , , , startTime] = fields;
    return state === "Z" || state === "X" ? undefined : startTime;
  } catch {
    return undefined;
  }
}

const hasProc = (() => {
  try {
    readFileSync("/proc/self/stat");
    return true;
  } catch {
    return false;
  }
})();

export const markOf = (pid: number): ProcessMark => ({ pid, startTime: hasProc ? startTimeOf(pid) : undefined });

/** Whether the marked process is still the one alive under its pid. */
export function isStillRunning({ pid, startTime }: ProcessMark): boolean {
  if (!hasProc || startTime === undefined) return isProcessRunning(pid);
  return startTimeOf(pid) === startTime;
}

export const formatMark = ({ pid, startTime }: ProcessMark) => [pid, startTime].filter((part) => part !== undefined).join(" ");

/** A mark written by formatMark (or, from older versions, a bare pid). */
export function parseMark(text: string): ProcessMark | undefined {
  const [pid, startTime] = text.trim().split(/\s+/);
  if (!/^\d+$/.test(pid ?? "")) return undefined;
  return { pid: Number(pid), ...(startTime ? { startTime } : {}) };
}

/** The arguments a living process was started with (empty where /proc cannot tell). */
export function commandLineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}
