import { describe, expect, it } from "vitest";
import { TEST_TOOLS, askToInstall, planTools } from "./ensure-test-tools.ts";

const [chromium, nginx] = TEST_TOOLS as [(typeof TEST_TOOLS)[number], (typeof TEST_TOOLS)[number]];

describe("the check of the machine's test tools before npm test", () => {
  it("runs the tests when every tool is there, whoever runs them", () => {
    expect(planTools({ missing: [], isRoot: false, hasAptGet: false })).toBe("ready");
    expect(planTools({ missing: [], isRoot: true, hasAptGet: true })).toBe("ready");
  });

  it("installs Debian's packages when it can (root with apt-get)", () => {
    expect(planTools({ missing: [nginx], isRoot: true, hasAptGet: true })).toBe("install");
    expect(planTools({ missing: [chromium, nginx], isRoot: true, hasAptGet: true })).toBe("install");
  });

  it("otherwise stops with one line naming what is missing, for which tests, and the command to run", () => {
    expect(planTools({ missing: [chromium], isRoot: false, hasAptGet: true })).toBe("ask");
    expect(planTools({ missing: [nginx], isRoot: true, hasAptGet: false })).toBe("ask");
    const one = askToInstall([chromium]);
    expect(one).not.toContain("\n");
    expect(one).toContain("sudo apt-get install -y chromium`");
    expect(one).toContain("CHROMIUM_PATH");
    expect(one).not.toContain("nginx");
    const both = askToInstall([chromium, nginx]);
    expect(both).not.toContain("\n");
    expect(both).toContain("sudo apt-get install -y chromium nginx`");
    expect(both).toMatch(/nginx at \/usr\/sbin\/nginx \(for the scale-out test\)/);
    expect(both).toContain("CHROMIUM_PATH or NGINX_PATH");
  });
});
