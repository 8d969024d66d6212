import type { ReactNode } from "react";

export type BadgeTone = "positive" | "negative" | "warning";

const toneClassNames: Record<BadgeTone, string> = {
  positive: "border-accent/40 bg-accent-soft text-accent-strong",
  negative: "border-danger/40 bg-danger-soft text-danger",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
};

/** A short state in a rounded pill; the words carry the meaning, the colour only repeats it. */
export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold ${toneClassNames[tone]}`}>
      {children}
    </span>
  );
}
