import { describe, expect, it } from "vitest";
import { describeUserAgent } from "@/features/settings/user-agent";

const AGENTS = {
  chromeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  safariIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  safariMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  edgeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70",
  chromeAndroid: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  chromeIpad: "Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  firefoxIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15",
  samsungAndroid: "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
  operaMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/116.0.0.0",
  chromeOs: "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  headlessLinux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
};

describe("describeUserAgent", () => {
  it.each([
    ["chromeWindows", "Chrome", "Windows"],
    ["firefoxLinux", "Firefox", "Linux"],
    ["safariIphone", "Safari", "iPhone"],
    ["safariMac", "Safari", "macOS"],
    ["edgeWindows", "Edge", "Windows"],
    ["chromeAndroid", "Chrome", "Android"],
    ["chromeIpad", "Chrome", "iPad"],
    ["firefoxIphone", "Firefox", "iPhone"],
    ["samsungAndroid", "Samsung Internet", "Android"],
    ["operaMac", "Opera", "macOS"],
    ["chromeOs", "Chrome", "ChromeOS"],
    ["headlessLinux", "Chrome", "Linux"],
  ] as const)("names %s as %s on %s, not as the browsers it also claims to be", (agent, browser, platform) => {
    expect(describeUserAgent(AGENTS[agent])).toEqual({ browser, platform });
  });

  it("says nothing it cannot read", () => {
    expect(describeUserAgent(null)).toEqual({ browser: null, platform: null });
    expect(describeUserAgent("")).toEqual({ browser: null, platform: null });
    expect(describeUserAgent("curl/8.5.0")).toEqual({ browser: null, platform: null });
    expect(describeUserAgent("Mozilla/5.0 (X11; Linux x86_64) SomeNewBrowser/1.0")).toEqual({ browser: null, platform: "Linux" });
  });
});
