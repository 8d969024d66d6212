/** A form-level error, e.g. wrong credentials, announced as soon as it appears. */
export function FormAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-danger bg-danger-soft px-3 py-2 text-sm font-medium text-danger">
      {message}
    </p>
  );
}
