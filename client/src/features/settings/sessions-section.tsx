import type { AccountSession } from "@shared/account-settings";
import { useTranslation } from "react-i18next";
import { SavedStatus } from "@/features/settings/saved-status";
import { useAccountSessions, useSignOutOtherSessions, useSignOutSession } from "@/features/settings/use-account-settings";
import { FormAlert } from "@/ui/form-alert";
import { Panel } from "@/ui/panel";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { errorText } from "@/lib/error-text";
import { describeUserAgent } from "@/features/settings/user-agent";

/**
 * A date and time of day in the reader's time zone, e.g. "Mar 1, 2025, 3:04 PM" / "1 mar 2025, 15:04". Kept
 * here rather than in lib/format.ts, which every first visit downloads (docs/decisions/0028).
 */
export function formatDateTime(isoTimestamp: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(isoTimestamp));
}

/** "Chrome on Windows", "Unknown browser on Linux", "Firefox", "Unknown browser". */
function useDeviceName(userAgent: string | null): string {
  const { t } = useTranslation();
  const { browser, platform } = describeUserAgent(userAgent);
  const browserName = browser ?? t("settings.sessions.unknownBrowser");
  return platform ? t("settings.sessions.browserOn", { browser: browserName, platform }) : browserName;
}

function SessionRow({ session, onSignOut, isSigningOut }: { session: AccountSession; onSignOut: () => void; isSigningOut: boolean }) {
  const { t, i18n } = useTranslation();
  const deviceName = useDeviceName(session.userAgent);
  const when = (isoTimestamp: string) => formatDateTime(isoTimestamp, i18n.resolvedLanguage ?? "en");
  return (
    <li data-testid="account-session" className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-semibold">
          <span className="break-words">{deviceName}</span>
          {session.current && <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent-strong">{t("settings.sessions.thisDevice")}</span>}
        </p>
        <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-ink-muted">
          {session.signedInAt && <span>{t("settings.sessions.signedInAt", { date: when(session.signedInAt) })}</span>}
          <span>{t("settings.sessions.lastActive", { date: when(session.lastActiveAt) })}</span>
        </p>
      </div>
      {!session.current && (
        <button type="button" onClick={onSignOut} disabled={isSigningOut} className={buttonClassName("secondary", "self-start sm:self-auto")}>
          {t(isSigningOut ? "settings.sessions.signingOut" : "settings.sessions.signOut")}
          <span className="sr-only">{`: ${deviceName}`}</span>
        </button>
      )}
    </li>
  );
}

/** Where the account is signed in, the browser asking first; any other one can be signed out from here. */
export function SessionsSection() {
  const { t } = useTranslation();
  const sessions = useAccountSessions();
  const signOut = useSignOutSession();
  const signOutOthers = useSignOutOtherSessions();
  // Either action's answer replaces the other's, so the section says one thing at a time.
  const lastAction = signOut.submittedAt > signOutOthers.submittedAt ? signOut : signOutOthers;

  let saved: string | null = null;
  if (signOut === lastAction && signOut.isSuccess) saved = t("settings.sessions.signedOut");
  if (signOutOthers === lastAction && signOutOthers.isSuccess) saved = t("settings.sessions.signedOutOthers", { count: signOutOthers.data.signedOut });

  const list = sessions.data?.sessions ?? [];
  const ordered = [...list.filter((session) => session.current), ...list.filter((session) => !session.current)];
  const hasOthers = ordered.some((session) => !session.current);

  return (
    <Panel title={t("settings.sessions.title")} description={t("settings.sessions.description")}>
      <div className="mt-5 flex flex-col gap-4">
        <FormAlert message={lastAction.isError ? errorText(lastAction.error) : undefined} />
        {sessions.isPending ? (
          <p role="status" className="text-ink-muted">
            {t("common.loading")}
          </p>
        ) : sessions.isError ? (
          <p className="text-ink-muted">
            {t("settings.sessions.fetchError")}{" "}
            <button type="button" onClick={() => void sessions.refetch()} className={textLinkClassName}>
              {t("catalog.retry")}
            </button>
          </p>
        ) : (
          <>
            <ul className="divide-y divide-line">
              {ordered.map((session) => (
                <SessionRow
                  key={session.id}
                  session={session}
                  isSigningOut={signOut.isPending && signOut.variables === session.id}
                  onSignOut={() => signOut.mutate(session.id)}
                />
              ))}
            </ul>
            {hasOthers ? (
              <button
                type="button"
                data-testid="sign-out-others"
                onClick={() => signOutOthers.mutate()}
                disabled={signOutOthers.isPending}
                className={buttonClassName("dangerOutline", "self-start")}
              >
                {t(signOutOthers.isPending ? "settings.sessions.signingOut" : "settings.sessions.signOutOthers")}
              </button>
            ) : (
              <p className="text-sm text-ink-muted">{t("settings.sessions.onlyThisDevice")}</p>
            )}
          </>
        )}
        <SavedStatus testId="sessions-saved" message={saved} />
      </div>
    </Panel>
  );
}
