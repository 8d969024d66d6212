import { type RefObject, useCallback, useEffect, useState } from "react";

/**
 * The reader's full screen (Fullscreen API) on `element`. Unsupported where the browser has no
 * element full screen (Safari on an iPhone): the button is then not shown. Esc leaves, the browser's own way.
 */
export function useFullScreen(element: RefObject<HTMLElement | null>) {
  const supported = typeof document !== "undefined" && document.fullscreenEnabled === true && typeof HTMLElement.prototype.requestFullscreen === "function";
  const [active, setActive] = useState(false);

  useEffect(() => {
    const onChange = () => setActive(document.fullscreenElement !== null && document.fullscreenElement === element.current);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, [element]);

  const toggle = useCallback(() => {
    if (!supported) return;
    // A refusal (no user gesture, a policy) leaves the reader as it was: nothing to tell.
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void element.current?.requestFullscreen().catch(() => undefined);
  }, [element, supported]);

  return { supported, active, toggle };
}
