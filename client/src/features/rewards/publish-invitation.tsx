import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { buttonClassName, panelClassName } from "@/ui/styles";

interface PublishInvitationProps {
  /** Reveals the author parts the screen keeps back from a reader. */
  onShowAuthorParts: () => void;
  /** A sentence on what the screen shows once the reader publishes (the dashboard's). */
  note?: string;
}

/** What a reader who has not published sees in place of the author parts: a way to publish, and a way to see them anyway. */
export function PublishInvitation({ onShowAuthorParts, note }: PublishInvitationProps) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="publish-invitation" data-testid="publish-invitation" className={panelClassName}>
      <h2 id="publish-invitation" className="text-xl font-semibold">
        {t("authorInvitation.title")}
      </h2>
      <p className="mt-2 max-w-prose text-ink-muted">{t("authorInvitation.text")}</p>
      {note && <p className="mt-2 max-w-prose text-sm text-ink-muted">{note}</p>}
      <div className="mt-4 flex flex-wrap gap-2">
        <Link href="/upload" className={buttonClassName("primary")}>
          {t("authorInvitation.publish")}
        </Link>
        <button type="button" data-testid="show-author-parts" onClick={onShowAuthorParts} className={buttonClassName("secondary")}>
          {t("authorInvitation.showTools")}
        </button>
      </div>
    </section>
  );
}
