import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../paths.ts";
import { bundledChild, runCaged } from "./caged-job.ts";
import { bundleChildSources } from "./child-bundle.ts";

/* A cage's TypeScript child from the sources runs as a bundle, never through tsx (docs/decisions/0113). */

const CHILD_SOURCE = "test/helpers/typed-cage-child.ts";
const LIMITS = { timeoutMs: 20_000, heapMegabytes: 64 };

describe("a TypeScript child run from the sources", () => {
  it("is bundled into one plain script named by its content, inside the project, written once", async () => {
    const path = await bundleChildSources(CHILD_SOURCE);
    expect(path).toMatch(/node_modules\/\.cache\/plume-cages\/typed-cage-child-[0-9a-f]{16}\.js$/);
    expect(path.startsWith(projectRoot)).toBe(true);
    const code = readFileSync(path, "utf8");
    // Our TypeScript is in it; packages are imported from node_modules by name, as production's build leaves them.
    expect(code).toContain("isSingleLineText");
    expect(code).toMatch(/from "zod"/);
    const written = statSync(path).mtimeMs;
    expect(await bundleChildSources(CHILD_SOURCE)).toBe(path);
    expect(statSync(path).mtimeMs).toBe(written);
  });

  it("answers its job from the bundle, started without tsx's loader", async () => {
    const program = bundledChild(CHILD_SOURCE, true);
    const { answer } = await runCaged<{ text: string }, { singleLine: boolean; length: number; execArgv: string[] }>(program, { text: "Plume" }, LIMITS);
    expect(answer).toMatchObject({ singleLine: true, length: 5 });
    expect(answer.execArgv.join(" ")).not.toMatch(/tsx/);
    expect(await program.script()).toBe(await bundleChildSources(CHILD_SOURCE));
  });

  it("refuses sources that do not build with the bundler's error, never a verdict on a job", async () => {
    await expect(bundleChildSources("test/helpers/no-such-child.ts")).rejects.toThrow(/Could not resolve/);
    const program = bundledChild("test/helpers/no-such-child.ts", true);
    await expect(runCaged(program, {}, LIMITS)).rejects.not.toHaveProperty("failure");
  });
});
