import type { ReactNode } from "react";

interface EmptyStateProps {
  title: string;
  hint: string;
  /** A way forward, e.g. a link to publish or a button to clear the filters. */
  action?: ReactNode;
  headingLevel?: 2 | 3;
}

/** Shown where a list has nothing in it: what happened and what to do next. */
export function EmptyState({ title, hint, action, headingLevel = 2 }: EmptyStateProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed border-line bg-surface px-6 py-12 text-center">
      <svg aria-hidden="true" viewBox="0 0 48 48" className="size-12 text-accent" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M8 10.5c5-2 10.5-2 16 1.5 5.5-3.5 11-3.5 16-1.5v27c-5-2-10.5-2-16 1.5-5.5-3.5-11-3.5-16-1.5z" />
        <path d="M24 12v27" />
      </svg>
      <Heading className="mt-4 text-2xl font-semibold">{title}</Heading>
      <p className="mt-2 max-w-md text-ink-muted">{hint}</p>
      {action && <div className="mt-6">{action}</div>}
    </div>
  );
}
