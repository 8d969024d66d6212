import { buttonClassName } from "@/components/ui/styles";
import { ApiError } from "@/lib/api";

/** The API's answer for an id that names nothing a visitor may see: the page shows the 404 screen, as the server did. */
export const isNotFoundError = (error: unknown) => error instanceof ApiError && error.status === 404;

/** A page whose data could not be loaded for another reason: say so, and offer to try again. */
export function PageLoadError({ message, retryLabel, onRetry }: { message: string; retryLabel: string; onRetry: () => void }) {
  return (
    <div role="alert" className="mx-auto w-full max-w-6xl px-4 py-16">
      <p className="text-lg">{message}</p>
      <button type="button" onClick={onRetry} className={buttonClassName("secondary", "mt-4")}>
        {retryLabel}
      </button>
    </div>
  );
}
