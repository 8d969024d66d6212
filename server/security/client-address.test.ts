import express from "express";
import request from "supertest";
import { describe, expect, it, vi } from "vitest";
import { logger } from "../system/logger.ts";
import { addressIn, fixClientAddress } from "./client-address.ts";

/** An app behind a trusted local proxy (supertest's requests come from loopback) that answers the address each request was given. */
function behindProxy(trustProxy: string | number = "loopback") {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.use(fixClientAddress({ proxyTrusted: true }));
  app.get("/", (req, res) => res.json({ ip: req.ip, countingAddress: req.countingAddress ?? null }));
  return app;
}

describe("the address a trusted proxy forwards (docs/decisions/0053)", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9", "203.0.113.9"],
    ["203.0.113.9:51234", "203.0.113.9", "203.0.113.9"],
    ["2001:db8:5::1", "2001:db8:5::1", "2001:db8:5::/64"],
    ["[2001:db8:5::1]:443", "2001:db8:5::1", "2001:db8:5::/64"],
    ["[2001:db8:5::1]", "2001:db8:5::1", "2001:db8:5::/64"],
    ["::ffff:198.51.100.4", "::ffff:198.51.100.4", "198.51.100.4"],
  ])("takes %s as %s, counted as %s", async (forwarded, ip, countingAddress) => {
    const response = await request(behindProxy()).get("/").set("X-Forwarded-For", forwarded).expect(200);
    expect(response.body).toEqual({ ip, countingAddress });
  });

  it.each(["unknown", "203.0.113.300", "203.0.113.9:port", "[203.0.113.9]:80", "2001:db8::g", "[2001:db8::1", "plume.example", "_hidden", "1.2.3.4 5.6.7.8", "%00", "x".repeat(500)])(
    "takes %j for no address: limited as the proxy it came through, its download not counted",
    async (forwarded) => {
      const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
      try {
        const response = await request(behindProxy()).get("/").set("X-Forwarded-For", forwarded).expect(200);
        expect(response.body).toEqual({ ip: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$|^::1$/), countingAddress: null });
        expect(warn).toHaveBeenCalledTimes(1);
      } finally {
        warn.mockRestore();
      }
    },
  );

  it("takes what a client wrote past a hop count that is too high for no address when it is none, and says so once", async () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    try {
      const app = behindProxy(2);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const response = await request(app).get("/").set("X-Forwarded-For", "unknown, 203.0.113.9").expect(200);
        expect(response.body.countingAddress).toBeNull();
      }
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });

  it("reads an address without a port as it is, and nothing else as one", () => {
    expect(addressIn("10.0.0.1:0")).toBe("10.0.0.1");
    expect(addressIn("[::1]:65535")).toBe("::1");
    expect(addressIn("")).toBeUndefined();
    expect(addressIn("10.0.0.1:")).toBeUndefined();
    expect(addressIn("10.0.0.1:123456")).toBeUndefined();
  });
});
