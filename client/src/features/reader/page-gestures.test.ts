import { describe, expect, it } from "vitest";
import { readGesture } from "@/features/reader/page-gestures";

const AREA = { left: 0, width: 390 };
const tap = (x: number, duration = 120) => readGesture({ startX: x, startY: 400, endX: x + 3, endY: 402, duration }, AREA);
const stroke = (dx: number, dy: number, duration = 250) => readGesture({ startX: 200, startY: 400, endX: 200 + dx, endY: 400 + dy, duration }, AREA);

describe("readGesture", () => {
  it("reads a tap by the third of the page it lands in", () => {
    expect(tap(40)).toBe("previous");
    expect(tap(195)).toBe("toggle-chrome");
    expect(tap(350)).toBe("next");
  });

  it("measures the thirds from the page area's own left edge", () => {
    expect(readGesture({ startX: 520, startY: 10, endX: 520, endY: 10, duration: 80 }, { left: 500, width: 300 })).toBe("previous");
  });

  it("turns forward on a swipe to the left and back on a swipe to the right", () => {
    expect(stroke(-120, 10)).toBe("next");
    expect(stroke(120, -10)).toBe("previous");
  });

  it("leaves alone a long press (selecting text), a scroll, a slow drag and a short stroke", () => {
    expect(tap(350, 800)).toBeNull();
    expect(stroke(-60, 200)).toBeNull();
    expect(stroke(-200, 0, 1500)).toBeNull();
    expect(stroke(-30, 0)).toBeNull();
  });
});
