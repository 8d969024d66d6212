/** A browser and the system it runs on, as named to the person it belongs to; null where the User-Agent does not say. */
export interface DeviceDescription {
  browser: string | null;
  platform: string | null;
}

// Order matters: Edge, Opera and Samsung Internet also call themselves Chrome, Chrome also calls
// itself Safari, and every iOS browser is Safari underneath but names itself (CriOS, FxiOS, EdgiOS).
const BROWSERS: [RegExp, string][] = [
  [/\b(?:Edg|EdgA|EdgiOS)\//, "Edge"],
  [/\b(?:OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\b(?:Chrome|HeadlessChrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

// iPhones and iPads before macOS (an iPad may say "Mac OS X"), Android and ChromeOS before Linux.
const PLATFORMS: [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

const firstMatch = (userAgent: string, patterns: [RegExp, string][]) => patterns.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;

/** Reads a User-Agent header the way a person would describe the device: "Chrome" on "Windows". */
export function describeUserAgent(userAgent: string | null): DeviceDescription {
  if (!userAgent) return { browser: null, platform: null };
  return { browser: firstMatch(userAgent, BROWSERS), platform: firstMatch(userAgent, PLATFORMS) };
}
