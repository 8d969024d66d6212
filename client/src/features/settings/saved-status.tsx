import { CheckIcon } from "@/ui/icons";

/**
 * A section's word that its change went through. The live region is always there, so the sentence is
 * read out when it appears; a refusal is shown by the form itself (FormAlert, field errors) instead.
 */
export function SavedStatus({ message, testId }: { message: string | null; testId?: string }) {
  return (
    <p role="status" data-testid={testId} className="flex items-start gap-2 text-sm font-medium text-emerald-800 empty:hidden">
      {message && (
        <>
          <CheckIcon className="mt-0.5 size-4 shrink-0" />
          <span className="min-w-0 break-words">{message}</span>
        </>
      )}
    </p>
  );
}
