import type { CurrentUser } from "@shared/auth";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { SavedStatus } from "@/features/settings/saved-status";
import { useUpdateNotifications } from "@/features/settings/use-account-settings";
import { FormAlert } from "@/ui/form-alert";
import { Panel } from "@/ui/panel";
import { errorText } from "@/lib/error-text";

/** Saved as soon as it is ticked or unticked: there is nothing else to fill in. */
export function NotificationsSection({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const id = useId();
  const update = useUpdateNotifications();
  // While the change is on its way the box shows it, not the value it replaces.
  const checked = update.isPending ? update.variables.paymentCompleted : user.notifyPaymentCompleted;
  const saved = update.isSuccess ? t(update.data.notifyPaymentCompleted ? "settings.notifications.savedOn" : "settings.notifications.savedOff") : null;

  return (
    <Panel title={t("settings.notifications.title")}>
      <div className="mt-4 flex flex-col gap-3">
        <FormAlert message={update.isError ? errorText(update.error) : undefined} />
        <div className="flex items-start gap-3">
          <input
            id={id}
            type="checkbox"
            data-testid="notify-payment-completed"
            checked={checked}
            disabled={update.isPending}
            aria-describedby={`${id}-hint`}
            onChange={(event) => update.mutate({ paymentCompleted: event.target.checked })}
            className="mt-0.5 size-5 shrink-0 accent-accent"
          />
          <div>
            <label htmlFor={id} className="font-medium">
              {t("settings.notifications.paymentCompleted")}
            </label>
            <p id={`${id}-hint`} className="mt-1 text-sm text-ink-muted">
              {t("settings.notifications.paymentCompletedHint")}
            </p>
          </div>
        </div>
        <SavedStatus testId="notifications-saved" message={saved} />
      </div>
    </Panel>
  );
}
