import { type ReactNode, useId } from "react";
import { panelClassName } from "./styles";

interface PanelProps {
  title: string;
  description?: string;
  children: ReactNode;
}

/** A titled card section of a page: the heading names the region for assistive technology. */
export function Panel({ title, description, children }: PanelProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={panelClassName}>
      <h2 id={headingId} className="text-xl font-semibold">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-ink-muted">{description}</p>}
      {children}
    </section>
  );
}
