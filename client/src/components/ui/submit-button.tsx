import { buttonClassName } from "@/components/ui/styles";

interface SubmitButtonProps {
  label: string;
  pendingLabel: string;
  isPending: boolean;
  testId: string;
}

/** Disabled and relabelled while the request runs, so a form is never sent twice. */
export function SubmitButton({ label, pendingLabel, isPending, testId }: SubmitButtonProps) {
  return (
    <button type="submit" disabled={isPending} data-testid={testId} className={buttonClassName("primary", "w-full")}>
      {isPending ? pendingLabel : label}
    </button>
  );
}
