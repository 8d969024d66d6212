import { Link } from "wouter";
import { textLinkClassName } from "@/ui/styles";

/** A home row's heading, with the link to where the whole list is. */
export function RowHeading({ id, title, href, linkLabel }: { id: string; title: string; href: string; linkLabel: string }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-3">
      <h2 id={id} className="text-2xl font-semibold sm:text-3xl">
        {title}
      </h2>
      <Link href={href} className={textLinkClassName}>
        {linkLabel}
      </Link>
    </div>
  );
}
