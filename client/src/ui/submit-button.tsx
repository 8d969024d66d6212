import { buttonClassName } from "@/ui/styles";

interface SubmitButtonProps {
  label: string;
  pendingLabel: string;
  isPending: boolean;
  testId: string;
  /** Full width by default, as in the one-column auth cards. */
  className?: string;
}

/** Disabled and relabelled while the request runs, so a form is never sent twice. */
export function SubmitButton({ label, pendingLabel, isPending, testId, className = "w-full" }: SubmitButtonProps) {
  return (
    <button type="submit" disabled={isPending} data-testid={testId} className={buttonClassName("primary", className)}>
      {isPending ? pendingLabel : label}
    </button>
  );
}
