import { readFileSync, readdirSync } from "node:fs";

/** One process of a tree as Linux /proc shows it: what it runs and what it holds in memory. */
export interface ProcessFootprint {
  pid: number;
  parentPid: number;
  /** Its command line, as it was started. */
  command: string[];
  /** Resident memory: what `ps` and `top` show, pages shared with other processes counted in full. */
  rssBytes: number;
  /**
   * Proportional set size: each page shared by n processes counts 1/n, so the sum over processes is
   * what the tree really holds (two node processes share the node executable's pages).
   */
  pssBytes: number;
}

const kilobytesField = (text: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(text)?.[1] ?? 0) * 1024;

/** A process's direct children (/proc/<pid>/task/<tid>/children, every thread's). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((thread) =>
    readFileSync(`/proc/${pid}/task/${thread}/children`, "utf8")
      .trim()
      .split(" ")
      .filter(Boolean)
      .map(Number),
  );
}

function footprintOf(pid: number): ProcessFootprint {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return {
    pid,
    // The command name in parentheses may hold spaces: the fields start after its closing one.
    parentPid: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]),
    command: readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean),
    rssBytes: kilobytesField(readFileSync(`/proc/${pid}/status`, "utf8"), "VmRSS"),
    pssBytes: kilobytesField(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"), "Pss"),
  };
}

/**
 * A process and all its descendants, parents before their children. A process that ends while the
 * tree is read is left out, with its descendants.
 */
export function processTree(rootPid: number): ProcessFootprint[] {
  const tree: ProcessFootprint[] = [];
  const visit = (pid: number) => {
    let footprint: ProcessFootprint;
    let children: number[];
    try {
      footprint = footprintOf(pid);
      children = childrenOf(pid);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ESRCH") return;
      throw error;
    }
    tree.push(footprint);
    children.forEach(visit);
  };
  visit(rootPid);
  return tree;
}
