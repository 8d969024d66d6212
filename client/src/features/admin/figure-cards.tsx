export interface Figure {
  label: string;
  value: string;
  testId: string;
}

/** Headline figures as cards, the number large with its label below it. */
export function FigureCards({ figures, columnsClassName }: { figures: Figure[]; columnsClassName: string }) {
  return (
    <dl className={`grid gap-4 ${columnsClassName}`}>
      {figures.map(({ label, value, testId }) => (
        <div key={testId} className="flex flex-col-reverse justify-center gap-1 rounded-xl border border-line bg-surface p-5 shadow-sm">
          <dt className="text-sm text-ink-muted">{label}</dt>
          <dd data-testid={testId} className="font-serif text-3xl font-semibold break-words text-accent sm:text-4xl">
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
