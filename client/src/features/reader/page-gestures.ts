import { type RefObject, useEffect, useLayoutEffect, useRef } from "react";

/** What a touch on the page does (docs/product.md#reading). */
export type Gesture = "previous" | "next" | "toggle-chrome";

export interface PointerTrace {
  startX: number;
  startY: number;
  endX: number;
  endY: number;
  /** Milliseconds from down to up. */
  duration: number;
}

/** Within this many pixels a touch is a tap; a hold longer than TAP_MS is a long press (selecting text). */
const TAP_SLOP_PX = 10;
const TAP_MS = 500;
/** A swipe is a quick, mostly sideways stroke at least this long. */
const SWIPE_MIN_PX = 50;
const SWIPE_MS = 800;

/**
 * A finished one-finger touch read as a gesture, or null: a tap in the left third turns back, in the
 * right third forward, in the middle shows or hides the controls; a swipe left turns forward, right
 * back. `left` and `width` are the page area's, in the same coordinates as the trace.
 */
export function readGesture(trace: PointerTrace, area: { left: number; width: number }): Gesture | null {
  const dx = trace.endX - trace.startX;
  const dy = trace.endY - trace.startY;
  if (Math.abs(dx) <= TAP_SLOP_PX && Math.abs(dy) <= TAP_SLOP_PX) {
    if (trace.duration > TAP_MS) return null;
    const at = (trace.endX - area.left) / area.width;
    return at < 1 / 3 ? "previous" : at > 2 / 3 ? "next" : "toggle-chrome";
  }
  if (Math.abs(dx) >= SWIPE_MIN_PX && Math.abs(dx) > 2 * Math.abs(dy) && trace.duration <= SWIPE_MS) return dx < 0 ? "next" : "previous";
  return null;
}

/** Whether the browser's pinch-zoom has enlarged the page: a finger then moves around it, and turns nothing. */
export const isPinchZoomed = () => (window.visualViewport?.scale ?? 1) > 1.01;

/** What a tap on these is theirs: a link, a button, a field. */
const OWN_TAPS = "a, button, input, select, textarea, label, [role=button]";

/**
 * Taps and swipes on the page area. Only touch and pen: a mouse clicks to select text and double-
 * clicks words, and has the buttons and keys. Left alone: a second finger (pinch-zoom), a touch the
 * browser took over (scrolling, pointercancel), a touch that scrolled the page sideways (panning a
 * zoomed page), any touch while pinch-zoomed, a touch that left text selected, and taps on links and controls.
 */
export function usePageGestures(area: RefObject<HTMLElement | null>, onGesture: (gesture: Gesture) => void) {
  const latest = useRef(onGesture);
  // Before anything can call it, so a touch right after a render acts on that render's state.
  useLayoutEffect(() => {
    latest.current = onGesture;
  });
  useEffect(() => {
    const element = area.current;
    if (!element) return;
    let start: { id: number; x: number; y: number; time: number; scrollLeft: number } | null = null;
    let fingers = 0;
    const onDown = (event: PointerEvent) => {
      if (event.pointerType === "mouse") return;
      fingers += 1;
      start = fingers === 1 ? { id: event.pointerId, x: event.clientX, y: event.clientY, time: event.timeStamp, scrollLeft: element.scrollLeft } : null;
    };
    const onEnd = (event: PointerEvent) => {
      if (event.pointerType === "mouse") return;
      fingers = Math.max(fingers - 1, 0);
      const begun = start;
      start = null;
      if (event.type !== "pointerup" || !begun || begun.id !== event.pointerId || element.scrollLeft !== begun.scrollLeft || isPinchZoomed()) return;
      if (event.target instanceof Element && event.target.closest(OWN_TAPS)) return;
      const selection = window.getSelection();
      if (selection && !selection.isCollapsed && selection.toString().trim() !== "") return;
      const box = element.getBoundingClientRect();
      const gesture = readGesture(
        { startX: begun.x, startY: begun.y, endX: event.clientX, endY: event.clientY, duration: event.timeStamp - begun.time },
        { left: box.left, width: box.width },
      );
      if (gesture) latest.current(gesture);
    };
    element.addEventListener("pointerdown", onDown);
    element.addEventListener("pointerup", onEnd);
    element.addEventListener("pointercancel", onEnd);
    return () => {
      element.removeEventListener("pointerdown", onDown);
      element.removeEventListener("pointerup", onEnd);
      element.removeEventListener("pointercancel", onEnd);
    };
  }, [area]);
}
