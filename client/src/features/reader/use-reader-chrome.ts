import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Whether the reader is using the controls: the pointer is over them, or the keyboard's focus is in
 * them. A focus left on a button by a click does not keep them (as :focus-visible, which jsdom lacks).
 */
const inUse = (element: HTMLElement | null, clicked: boolean) =>
  element !== null && (element.matches(":hover") || (!clicked && element.contains(document.activeElement)));

/** The controls stay this long after the pointer last moved, then give the page the whole screen. */
export const CHROME_IDLE_MS = 3000;

/**
 * Whether the reader's controls show (docs/product.md#reading). They show at the opening, when the
 * mouse moves, when a middle tap asks, and whenever the focus is in them (a keyboard's Tab brings
 * them back: the focus is never on something unseen); they hide after a while of reading, when a
 * page is turned by a key or a touch, or by a middle tap. Never while `held` (a panel is open) nor
 * while the focus or the pointer is in them (the element given the returned `chrome` ref). Hidden controls stay in the page for screen readers.
 */
export function useReaderChrome(held: boolean) {
  const chrome = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Whether the focus in the controls came from a pointer rather than a key.
  const clicked = useRef(false);
  const heldRef = useRef(held);
  useEffect(() => {
    heldRef.current = held;
  }, [held]);

  // While held or in use the wait starts again, so the controls go a while after the reader is done with them.
  const hideLater = useCallback(() => {
    clearTimeout(timer.current);
    const wait = () => {
      timer.current = setTimeout(() => {
        if (heldRef.current || inUse(chrome.current, clicked.current)) wait();
        else setShown(false);
      }, CHROME_IDLE_MS);
    };
    wait();
  }, []);

  /** Hides now, unless the focus or the pointer is in the controls; the caller closes any panel. */
  const hide = useCallback(() => {
    clearTimeout(timer.current);
    if (!inUse(chrome.current, clicked.current)) setShown(false);
  }, []);

  const show = useCallback(() => {
    setShown(true);
    hideLater();
  }, [hideLater]);

  const toggle = useCallback(() => (shown ? hide() : show()), [hide, show, shown]);

  useEffect(() => {
    hideLater();
    return () => clearTimeout(timer.current);
  }, [hideLater]);

  useEffect(() => {
    const element = chrome.current;
    if (!element) return;
    element.addEventListener("focusin", show);
    return () => element.removeEventListener("focusin", show);
  }, [show]);

  useEffect(() => {
    const onMove = (event: PointerEvent) => {
      if (event.pointerType === "mouse") show();
    };
    const onPointerDown = (event: PointerEvent) => {
      clicked.current = chrome.current?.contains(event.target as Node) ?? false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Tab") clicked.current = false;
    };
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerdown", onPointerDown, true);
    window.addEventListener("keydown", onKeyDown, true);
    return () => {
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerdown", onPointerDown, true);
      window.removeEventListener("keydown", onKeyDown, true);
    };
  }, [show]);

  return { chrome, shown, show, hide, toggle };
}
