export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger" | "dangerOutline" | "warning";

const baseClasses =
  "inline-flex min-h-10 items-center justify-center gap-2 whitespace-nowrap rounded-md px-3 py-2 text-sm font-semibold sm:px-4 transition-colors disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60";

const variantClasses: Record<ButtonVariant, string> = {
  primary: "bg-accent text-white hover:bg-accent-strong",
  secondary: "border border-line bg-surface text-ink hover:border-accent hover:text-accent",
  ghost: "text-ink hover:bg-accent-soft hover:text-accent-strong",
  danger: "bg-danger text-white hover:bg-danger-strong",
  dangerOutline: "border border-danger bg-surface text-danger hover:bg-danger-soft",
  warning: "border border-amber-500 bg-amber-50 text-amber-950 hover:bg-amber-100",
};

/** Shared by <button>s and by links that look like buttons. */
export function buttonClassName(variant: ButtonVariant = "primary", extraClasses = ""): string {
  return [baseClasses, variantClasses[variant], extraClasses].filter(Boolean).join(" ");
}

export const textLinkClassName = "font-semibold text-accent underline underline-offset-2 hover:text-accent-strong";

/** The card shell of a page section (see Panel). */
export const panelClassName = "rounded-xl border border-line bg-surface p-5 shadow-sm sm:p-6";
