import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";

/**
 * Runs before `npm test`: the browser tests drive Debian's Chromium, which a fresh machine may lack.
 * Where it can, it installs the package itself; otherwise it stops before any test with one line
 * saying what to run, instead of dozens of browser tests failing one by one.
 */

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export type ChromiumPlan = "ready" | "install" | "ask";

export interface Machine {
  hasChromium: boolean;
  isRoot: boolean;
  hasAptGet: boolean;
}

export function planChromium({ hasChromium, isRoot, hasAptGet }: Machine): ChromiumPlan {
  if (hasChromium) return "ready";
  return isRoot && hasAptGet ? "install" : "ask";
}

/** The one line a person reads when the test command cannot install Chromium itself. */
export function askToInstall(path: string): string {
  return `The browser tests need Chromium at ${path}. Install it with \`sudo apt-get install -y chromium\` (or set CHROMIUM_PATH to a Chromium binary), then run npm test again.`;
}

const isExecutable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

function main(): number {
  const machine = { hasChromium: isExecutable(CHROMIUM_PATH), isRoot: process.getuid?.() === 0, hasAptGet: isExecutable("/usr/bin/apt-get") };
  const plan = planChromium(machine);
  if (plan === "ready") return 0;
  if (plan === "ask") {
    console.error(askToInstall(CHROMIUM_PATH));
    return 1;
  }
  console.log("Chromium is missing: installing Debian's chromium package for the browser tests…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update", "-qq"], ["install", "-y", "-qq", "chromium"]]) {
    const { status } = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (status !== 0) {
      console.error(`apt-get ${args.join(" ")} failed. ${askToInstall(CHROMIUM_PATH)}`);
      return 1;
    }
  }
  if (isExecutable(CHROMIUM_PATH)) return 0;
  console.error(`The chromium package is installed but ${CHROMIUM_PATH} is not there. ${askToInstall(CHROMIUM_PATH)}`);
  return 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();
