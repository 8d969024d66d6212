import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatMark, markOf } from "../system/processes.ts";
import { DataDirLockedError, lockDataDir } from "./data-dir-lock.ts";

const freshDir = () => mkdtempSync(join(tmpdir(), "plume-lock-"));

describe("lockDataDir", () => {
  it("writes this process's id and start time, and removes the lock on release", () => {
    const dir = freshDir();
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, "plume.lock"), "utf8")).toMatch(new RegExp(`^${process.pid} \\d+$`));
    release();
    expect(existsSync(join(dir, "plume.lock"))).toBe(false);
  });

  it("refuses a folder held by another live process, naming it", async () => {
    const dir = freshDir();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      writeFileSync(join(dir, "plume.lock"), String(other.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by another Plume server \\(process ${other.pid}\\)`));
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("takes over a lock left by a process that died", async () => {
    const dir = freshDir();
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => dead.once("exit", resolve));
    writeFileSync(join(dir, "plume.lock"), String(dead.pid));
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, "plume.lock"), "utf8")).toMatch(new RegExp(`^${process.pid} `));
    release();
  });

  it("takes over a lock whose pid now belongs to another process: the start time it recorded is not that process's", () => {
    const dir = freshDir();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      writeFileSync(join(dir, "plume.lock"), `${other.pid} 1`);
      const release = lockDataDir(dir);
      expect(readFileSync(join(dir, "plume.lock"), "utf8")).toMatch(new RegExp(`^${process.pid} `));
      release();
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("refuses a folder held by a live process with the start time it recorded", async () => {
    const dir = freshDir();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      await new Promise((resolve) => other.once("spawn", resolve));
      writeFileSync(join(dir, "plume.lock"), formatMark(markOf(other.pid!)));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    } finally {
      other.kill("SIGKILL");
    }
  });
});
