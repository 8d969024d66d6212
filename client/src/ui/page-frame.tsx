import type { ReactNode } from "react";
import { useDocumentTitle } from "@/lib/use-document-title";

interface PageFrameProps {
  title: string;
  description?: string;
  headingTestId?: string;
  children?: ReactNode;
}

/** The frame every screen starts from: its heading, a short line below it, then its content. */
export function PageFrame({ title, description, headingTestId, children }: PageFrameProps) {
  useDocumentTitle(title);
  return (
    <section className="mx-auto w-full max-w-6xl px-4 py-12 sm:py-16">
      <h1 data-testid={headingTestId} className="text-3xl font-semibold sm:text-4xl">
        {title}
      </h1>
      {description && <p className="mt-3 max-w-prose text-lg text-ink-muted">{description}</p>}
      {children}
    </section>
  );
}
