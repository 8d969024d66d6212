import type { ReactNode } from "react";
import { Link, useSearch } from "wouter";
import { textLinkClassName } from "@/ui/styles";
import { useDocumentTitle } from "@/lib/use-document-title";

interface AuthCardProps {
  title: string;
  subtitle: string;
  /** The line under the card leading to the other auth screen, e.g. "New to Plume?" + "Create an account". */
  switchPrompt: string;
  /** Empty when the card's own content already leads there. */
  switchLinkLabel: string;
  switchLinkPath: "/login" | "/register";
  children: ReactNode;
}

export function AuthCard({ title, subtitle, switchPrompt, switchLinkLabel, switchLinkPath, children }: AuthCardProps) {
  useDocumentTitle(title);
  // The query string carries ?next=, so switching screens still returns the visitor where they were going.
  const search = useSearch();

  return (
    <section className="mx-auto w-full max-w-lg px-4 py-10 sm:py-16">
      <div className="rounded-xl border border-line bg-surface p-6 shadow-sm sm:p-8">
        <h1 className="text-3xl font-semibold">{title}</h1>
        <p className="mt-2 text-ink-muted">{subtitle}</p>
        <div className="mt-6">{children}</div>
      </div>
      {switchLinkLabel && (
        <p className="mt-6 text-center text-sm text-ink-muted">
          {switchPrompt}{" "}
          <Link href={search ? `${switchLinkPath}?${search}` : switchLinkPath} className={textLinkClassName}>
            {switchLinkLabel}
          </Link>
        </p>
      )}
    </section>
  );
}
