import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { listeningOrigin, siteOriginOf } from "./site-origin.ts";

describe("the site's origin (docs/decisions/0053)", () => {
  it("is PUBLIC_URL's when it is set, whatever the server listens on", () => {
    expect(siteOriginOf(loadConfig({ PUBLIC_URL: "https://Plume.Example/" }), 5000)).toBe("https://plume.example");
    expect(siteOriginOf(loadConfig({ PUBLIC_URL: "https://plume.example", HOST: "10.0.0.5" }), 41234)).toBe("https://plume.example");
  });

  it("is the address the server listens on otherwise: localhost for every interface, else that address", () => {
    expect(siteOriginOf(loadConfig({}), 5000)).toBe("http://localhost:5000");
    expect(siteOriginOf(loadConfig({ PUBLIC_URL: "" }), 41234)).toBe("http://localhost:41234");
    expect(listeningOrigin("::", 5000)).toBe("http://localhost:5000");
    expect(listeningOrigin("127.0.0.1", 5000)).toBe("http://127.0.0.1:5000");
    expect(listeningOrigin("localhost", 8080)).toBe("http://localhost:8080");
    expect(listeningOrigin("::1", 5000)).toBe("http://[::1]:5000");
    expect(listeningOrigin("Plume.LAN", 80)).toBe("http://plume.lan");
  });
});
