import { describe, expect, it } from "vitest";
import { askToInstall, planChromium } from "./ensure-chromium.ts";

describe("the Chromium check before npm test", () => {
  it("runs the tests when Chromium is there, whoever runs them", () => {
    expect(planChromium({ hasChromium: true, isRoot: false, hasAptGet: false })).toBe("ready");
    expect(planChromium({ hasChromium: true, isRoot: true, hasAptGet: true })).toBe("ready");
  });

  it("installs Debian's package when it can (root with apt-get)", () => {
    expect(planChromium({ hasChromium: false, isRoot: true, hasAptGet: true })).toBe("install");
  });

  it("otherwise stops with one line naming the command to run", () => {
    expect(planChromium({ hasChromium: false, isRoot: false, hasAptGet: true })).toBe("ask");
    expect(planChromium({ hasChromium: false, isRoot: true, hasAptGet: false })).toBe("ask");
    const line = askToInstall("/usr/bin/chromium");
    expect(line).not.toContain("\n");
    expect(line).toContain("sudo apt-get install -y chromium");
    expect(line).toContain("CHROMIUM_PATH");
  });
});
