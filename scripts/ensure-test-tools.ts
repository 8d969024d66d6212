import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";

/**
 * Runs before `npm test`: some tests drive programs of the machine that a fresh one may lack. Where
 * it can, it installs their Debian packages itself; otherwise it stops before any test with one line
 * saying what to run, instead of dozens of tests failing one by one.
 */

export interface TestTool {
  name: string;
  /** Where the tests look for it. */
  path: string;
  /** The variable that names another binary. */
  pathVariable: string;
  debianPackage: string;
  /** Which tests need it. */
  neededFor: string;
  /** A file the tests read (a Java archive run by java), not a program they run. */
  readOnly?: true;
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's nginx: the scale-out test runs several Plume processes behind it (test/helpers/nginx.ts). */
export const NGINX_PATH = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

/** Debian's EPUBCheck (its package pulls Java): the EPUBs Plume makes of Word books are checked with it (docs/decisions/0096). */
export const EPUBCHECK_PATH = process.env.EPUBCHECK_PATH ?? "/usr/share/java/epubcheck.jar";

export const TEST_TOOLS: TestTool[] = [
  { name: "Chromium", path: CHROMIUM_PATH, pathVariable: "CHROMIUM_PATH", debianPackage: "chromium", neededFor: "the browser tests" },
  { name: "nginx", path: NGINX_PATH, pathVariable: "NGINX_PATH", debianPackage: "nginx", neededFor: "the scale-out test" },
  { name: "EPUBCheck", path: EPUBCHECK_PATH, pathVariable: "EPUBCHECK_PATH", debianPackage: "epubcheck", neededFor: "the check of the EPUBs made of Word books", readOnly: true },
];

export type ToolsPlan = "ready" | "install" | "ask";

export interface Machine {
  missing: TestTool[];
  isRoot: boolean;
  hasAptGet: boolean;
}

export function planTools({ missing, isRoot, hasAptGet }: Machine): ToolsPlan {
  if (missing.length === 0) return "ready";
  return isRoot && hasAptGet ? "install" : "ask";
}

/** The one line a person reads when the test command cannot install what is missing itself. */
export function askToInstall(missing: TestTool[]): string {
  const needs = missing.map((tool) => `${tool.name} at ${tool.path} (for ${tool.neededFor})`).join(" and ");
  const packages = missing.map((tool) => tool.debianPackage).join(" ");
  const variables = missing.map((tool) => tool.pathVariable).join(" or ");
  return `The tests need ${needs}. Install ${missing.length === 1 ? "it" : "them"} with \`sudo apt-get install -y ${packages}\` (or set ${variables} to another binary), then run npm test again.`;
}

const isExecutable = (path: string, mode = constants.X_OK) => {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
};

function main(): number {
  const missingNow = () => TEST_TOOLS.filter((tool) => !isExecutable(tool.path, tool.readOnly ? constants.R_OK : constants.X_OK));
  const missing = missingNow();
  const plan = planTools({ missing, isRoot: process.getuid?.() === 0, hasAptGet: isExecutable("/usr/bin/apt-get") });
  if (plan === "ready") return 0;
  if (plan === "ask") {
    console.error(askToInstall(missing));
    return 1;
  }
  const packages = missing.map((tool) => tool.debianPackage);
  console.log(`${missing.map((tool) => tool.name).join(" and ")} missing: installing Debian's ${packages.join(" and ")} for the tests…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update", "-qq"], ["install", "-y", "-qq", ...packages]]) {
    const { status } = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (status !== 0) {
      console.error(`apt-get ${args.join(" ")} failed. ${askToInstall(missing)}`);
      return 1;
    }
  }
  const stillMissing = missingNow();
  if (stillMissing.length === 0) return 0;
  console.error(`The packages are installed but ${stillMissing.map((tool) => tool.path).join(" and ")} ${stillMissing.length === 1 ? "is" : "are"} not there. ${askToInstall(stillMissing)}`);
  return 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();
