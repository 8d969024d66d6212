import { describe, expect, it } from "vitest";
import { coverVariants } from "./covers.ts";

describe("coverVariants", () => {
  it("finds every stored width from the widest", () => {
    expect(coverVariants("/covers/0b7c3a52-7c0e-4f3e-9d55-3b1b0f1e2a4c-600.webp")).toEqual([
      { url: "/covers/0b7c3a52-7c0e-4f3e-9d55-3b1b0f1e2a4c-200.webp", width: 200 },
      { url: "/covers/0b7c3a52-7c0e-4f3e-9d55-3b1b0f1e2a4c-400.webp", width: 400 },
      { url: "/covers/0b7c3a52-7c0e-4f3e-9d55-3b1b0f1e2a4c-600.webp", width: 600 },
    ]);
  });

  it("keeps a cover stored before variants existed as it is", () => {
    expect(coverVariants("/covers/0b7c3a52-7c0e-4f3e-9d55-3b1b0f1e2a4c.jpg")).toEqual([
      { url: "/covers/0b7c3a52-7c0e-4f3e-9d55-3b1b0f1e2a4c.jpg", width: 600 },
    ]);
  });
});
