import { useTranslation } from "react-i18next";
import { Link } from "wouter";

interface FooterLink {
  label: string;
  /** A path inside the app, or an anchor on the landing page. */
  href: string;
}

const footerLinkClassName = "rounded text-ink-muted underline-offset-4 hover:text-accent hover:underline";

function FooterColumn({ title, links }: { title: string; links: FooterLink[] }) {
  return (
    <div>
      <h2 className="font-sans text-sm font-semibold text-ink">{title}</h2>
      <ul className="mt-3 space-y-2 text-sm">
        {links.map(({ label, href }) => (
          <li key={label}>
            {href.startsWith("/") ? (
              <Link href={href} className={footerLinkClassName}>
                {label}
              </Link>
            ) : (
              <a href={href} className={footerLinkClassName}>
                {label}
              </a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The landing page's footer columns for authors, readers and support (docs/product.md#screens). Only
 * the landing page shows them, so they come with its chunk, not with the first script every page loads
 * (docs/decisions/0071); the site footer draws them in its place.
 */
export function FooterColumns() {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("footer.navLabel")} className="mx-auto grid max-w-6xl gap-8 px-4 pt-10 pb-4 sm:grid-cols-3">
      <FooterColumn
        title={t("footer.authors.title")}
        links={[
          { label: t("footer.authors.publish"), href: "/register" },
          { label: t("footer.authors.rewards"), href: "#how-it-works" },
          { label: t("footer.authors.guide"), href: "/author-guide" },
        ]}
      />
      <FooterColumn
        title={t("footer.readers.title")}
        links={[
          { label: t("footer.readers.catalog"), href: "/catalog" },
          { label: t("footer.readers.account"), href: "/register" },
          { label: t("footer.readers.login"), href: "/login" },
        ]}
      />
      <FooterColumn
        title={t("footer.support.title")}
        links={[
          { label: t("footer.support.help"), href: "/help" },
          { label: t("footer.support.contact"), href: "/contact" },
          { label: t("footer.support.terms"), href: "/terms" },
          { label: t("footer.support.privacy"), href: "/privacy" },
          { label: t("footer.support.transparency"), href: "/transparency" },
        ]}
      />
    </nav>
  );
}

