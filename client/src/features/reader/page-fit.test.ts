import { describe, expect, it } from "vitest";
import { MAX_SCALE, MIN_SCALE, fitScale, parseLayout } from "@/features/reader/page-fit";

/** A 6 × 9 in page at scale 1: pdf.js measures pages in points, 72 to the inch. */
const SIX_BY_NINE = { width: 432, height: 648 };

describe("fitScale", () => {
  it("shows the whole of a tall page on a wide screen: its height decides", () => {
    // 1280 × 800 window less the site's bar (57 px) and the page's 16 px margins.
    const scale = fitScale(SIX_BY_NINE, { width: 1248, height: 711 }, "page");
    expect(scale).toBeCloseTo(711 / 648, 5);
    // The canvas takes whole pixels of this: never taller than the room.
    expect(Math.floor(SIX_BY_NINE.height * scale)).toBeLessThanOrEqual(711);
  });

  it("fills the width of a wide screen when asked, the page then taller than the window", () => {
    expect(fitScale(SIX_BY_NINE, { width: 1248, height: 711 }, "width")).toBeCloseTo(1248 / 432, 5);
  });

  it("lets the width decide on a phone held upright, whichever fit", () => {
    // 390 × 844 less the bar and 8 px margins.
    const room = { width: 374, height: 771 };
    expect(fitScale(SIX_BY_NINE, room, "page")).toBeCloseTo(374 / 432, 5);
    expect(fitScale(SIX_BY_NINE, room, "width")).toBeCloseTo(374 / 432, 5);
  });

  it("lets the height decide on a phone turned sideways", () => {
    expect(fitScale(SIX_BY_NINE, { width: 828, height: 358 }, "page")).toBeCloseTo(358 / 648, 5);
  });

  it("stays within the zoom's bounds in a room of nothing or a huge one", () => {
    expect(fitScale(SIX_BY_NINE, { width: 0, height: 0 }, "page")).toBe(MIN_SCALE);
    expect(fitScale({ width: 100, height: 100 }, { width: 5000, height: 5000 }, "width")).toBe(MAX_SCALE);
  });
});

describe("parseLayout", () => {
  it("reads back a stored fit and zoom, held within bounds", () => {
    expect(parseLayout('{"fit":"width","scale":null}')).toEqual({ fit: "width", scale: null });
    expect(parseLayout('{"fit":"page","scale":99}')).toEqual({ fit: "page", scale: MAX_SCALE });
  });

  it("ignores what is not a layout", () => {
    expect(parseLayout("not json")).toBeUndefined();
    expect(parseLayout('{"fit":"height"}')).toBeUndefined();
    expect(parseLayout("null")).toBeUndefined();
  });
});
