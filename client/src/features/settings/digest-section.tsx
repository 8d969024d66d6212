import type { CurrentUser } from "@shared/auth";
import { FOLLOWING_ATOM_PATH, FOLLOWING_OPDS_PATH } from "@shared/follows";
import { DIGEST_FREQUENCIES, type DigestFrequency } from "@shared/returning-readers";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { SavedStatus } from "@/features/settings/saved-status";
import { useUpdateDigest } from "@/features/settings/use-account-settings";
import { errorText } from "@/lib/error-text";
import { CopyableValue } from "@/ui/copyable-value";
import { FormAlert } from "@/ui/form-alert";
import { Panel } from "@/ui/panel";

/**
 * How often the reader is mailed the new books and editions of the authors they follow: never, as they
 * come, or once a week (docs/product.md#follows), saved at a click; and the addresses of the same news
 * as the reader's own OPDS and Atom feeds.
 */
export function DigestSection({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const id = useId();
  const update = useUpdateDigest();
  const chosen: DigestFrequency = update.isPending ? update.variables.digestFrequency : user.digestFrequency;
  const origin = window.location.origin;
  return (
    <Panel title={t("following.digest.title")}>
      <div className="mt-4 flex flex-col gap-3">
        <FormAlert message={update.isError ? errorText(update.error) : undefined} />
        <fieldset aria-describedby={user.emailVerified ? undefined : `${id}-unverified`}>
          <legend className="font-medium">{t("following.digest.legend")}</legend>
          <div className="mt-2 space-y-2">
            {DIGEST_FREQUENCIES.map((frequency) => (
              <label key={frequency} className="flex cursor-pointer items-start gap-3 rounded-md border border-line p-3 has-checked:border-accent has-checked:bg-accent-soft/40">
                <input
                  type="radio"
                  name={`${id}-digest`}
                  value={frequency}
                  checked={chosen === frequency}
                  disabled={update.isPending}
                  data-testid={`digest-${frequency}`}
                  onChange={() => update.mutate({ digestFrequency: frequency })}
                  className="mt-1 size-4 shrink-0 accent-accent"
                />
                <span>
                  <span className="block font-medium">{t(`following.digest.${frequency}`)}</span>
                  <span className="block text-sm text-ink-muted">{t(`following.digest.${frequency}Hint`)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        {!user.emailVerified && (
          <p id={`${id}-unverified`} className="text-sm text-ink-muted">
            {t("following.digest.unverified")}
          </p>
        )}
        <SavedStatus testId="digest-saved" message={update.isSuccess ? t("following.digest.saved") : null} />
        <div className="mt-2 border-t border-line pt-4">
          <h3 className="font-semibold">{t("following.digest.feedsTitle")}</h3>
          <p className="mt-1 text-sm text-ink-muted">{t("following.digest.feedsHint")}</p>
          <p className="mt-3 text-sm font-semibold">{t("following.digest.opdsFeed")}</p>
          <CopyableValue
            value={`${origin}${FOLLOWING_OPDS_PATH}`}
            copyLabel={t("following.digest.copyOpds")}
            copiedMessage={t("following.digest.copied")}
            copyErrorMessage={t("eReaders.copyError")}
            testId="following-opds-url"
          />
          <p className="mt-3 text-sm font-semibold">{t("following.digest.atomFeed")}</p>
          <CopyableValue
            value={`${origin}${FOLLOWING_ATOM_PATH}`}
            copyLabel={t("following.digest.copyAtom")}
            copiedMessage={t("following.digest.copied")}
            copyErrorMessage={t("eReaders.copyError")}
            testId="following-atom-url"
          />
        </div>
      </div>
    </Panel>
  );
}
