import type { CurrentUser } from "@shared/auth";
import { PreferenceToggle } from "@/features/settings/preference-toggle";
import { useUpdateNotifications } from "@/features/settings/use-account-settings";

const TEXTS = {
  title: "settings.notifications.title",
  label: "settings.notifications.paymentCompleted",
  hint: "settings.notifications.paymentCompletedHint",
  savedOn: "settings.notifications.savedOn",
  savedOff: "settings.notifications.savedOff",
};

/** Whether the author is mailed for each payment (docs/product.md#settings). */
export function NotificationsSection({ user }: { user: CurrentUser }) {
  return (
    <PreferenceToggle
      texts={TEXTS}
      testIds={{ box: "notify-payment-completed", saved: "notifications-saved" }}
      valueOf={(account) => account.notifyPaymentCompleted}
      inputOf={(paymentCompleted) => ({ paymentCompleted })}
      checkedIn={(input) => input.paymentCompleted}
      update={useUpdateNotifications()}
      user={user}
    />
  );
}
