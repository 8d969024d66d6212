import { type ReactNode, useEffect, useRef } from "react";

interface RevealedRegionProps {
  /** The button that revealed it is gone: the region takes the focus it had, once. */
  takeFocus: boolean;
  onFocusTaken: () => void;
  children: ReactNode;
}

/** Holds what a button revealed in its own place. */
export function RevealedRegion({ takeFocus, onFocusTaken, children }: RevealedRegionProps) {
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!takeFocus) return;
    region.current?.focus();
    onFocusTaken();
  }, [takeFocus, onFocusTaken]);
  return (
    <div ref={region} tabIndex={-1} className="outline-none">
      {children}
    </div>
  );
}
