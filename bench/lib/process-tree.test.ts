import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { processTree } from "./process-tree.ts";

const MEGABYTE = 1024 * 1024;

describe("processTree", () => {
  it("lists a process and its descendants, parents first, each with its resident and proportional memory", async () => {
    // A shell whose child holds 64 MB it touched: the grandchild must be found through the shell.
    const holder = "const held = Buffer.alloc(64 * 1024 * 1024, 1); console.log('ready'); setInterval(() => held.length, 1000);";
    const shell = spawn("sh", ["-c", `${JSON.stringify(process.execPath)} -e ${JSON.stringify(holder)}; true`], {
      stdio: ["ignore", "pipe", "ignore"],
      // Its own process group, so that the grandchild ends with it.
      detached: true,
    });
    try {
      await once(shell.stdout!, "data");
      const tree = processTree(shell.pid!);
      expect(tree.map((process) => process.pid)[0]).toBe(shell.pid);
      expect(tree).toHaveLength(2);
      const [parent, child] = tree as [(typeof tree)[0], (typeof tree)[0]];
      expect(child.parentPid).toBe(parent.pid);
      expect(child.command[0]).toBe(process.execPath);
      expect(child.rssBytes).toBeGreaterThan(64 * MEGABYTE);
      expect(child.pssBytes).toBeGreaterThan(60 * MEGABYTE);
      expect(child.pssBytes).toBeLessThanOrEqual(child.rssBytes);
    } finally {
      const exited = once(shell, "exit");
      process.kill(-shell.pid!, "SIGKILL");
      await exited;
    }
  });

  it("is empty for a process that is gone", async () => {
    const gone = spawn("true");
    await once(gone, "exit");
    expect(processTree(gone.pid!)).toEqual([]);
  });
});
