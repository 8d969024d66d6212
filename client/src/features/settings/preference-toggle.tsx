import type { CurrentUser } from "@shared/auth";
import type { UseMutationResult } from "@tanstack/react-query";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import { SavedStatus } from "@/features/settings/saved-status";
import { FormAlert } from "@/ui/form-alert";
import { Panel } from "@/ui/panel";
import { errorText } from "@/lib/error-text";

/** The texts of one yes-or-no setting: its section's title, the box's label and hint, and what is said once saved either way. */
export interface PreferenceTexts {
  title: string;
  label: string;
  hint: string;
  savedOn: string;
  savedOff: string;
}

interface PreferenceToggleProps<Input> {
  texts: PreferenceTexts;
  /** The box's and the saved message's test ids. */
  testIds: { box: string; saved: string };
  /** The setting's value on the account as the server last answered it. */
  valueOf: (user: CurrentUser) => boolean;
  /** The request body that sets it, and the value a body sets. */
  inputOf: (checked: boolean) => Input;
  checkedIn: (input: Input) => boolean;
  update: UseMutationResult<CurrentUser, Error, Input>;
  user: CurrentUser;
  /** What follows from the setting, under it (a link to what it shows). */
  children?: ReactNode;
}

/** A setting that is a box to tick, saved as soon as it is ticked or unticked: there is nothing else to fill in. */
export function PreferenceToggle<Input>({ texts, testIds, valueOf, inputOf, checkedIn, update, user, children }: PreferenceToggleProps<Input>) {
  const { t } = useTranslation();
  const id = useId();
  // While the change is on its way the box shows it, not the value it replaces.
  const checked = update.isPending ? checkedIn(update.variables) : valueOf(user);
  const saved = update.isSuccess ? t(valueOf(update.data) ? texts.savedOn : texts.savedOff) : null;

  return (
    <Panel title={t(texts.title)}>
      <div className="mt-4 flex flex-col gap-3">
        <FormAlert message={update.isError ? errorText(update.error) : undefined} />
        <div className="flex items-start gap-3">
          <input
            id={id}
            type="checkbox"
            data-testid={testIds.box}
            checked={checked}
            disabled={update.isPending}
            aria-describedby={`${id}-hint`}
            onChange={(event) => update.mutate(inputOf(event.target.checked))}
            className="mt-0.5 size-5 shrink-0 accent-accent"
          />
          <div>
            <label htmlFor={id} className="font-medium">
              {t(texts.label)}
            </label>
            <p id={`${id}-hint`} className="mt-1 text-sm text-ink-muted">
              {t(texts.hint)}
            </p>
          </div>
        </div>
        <SavedStatus testId={testIds.saved} message={saved} />
        {children}
      </div>
    </Panel>
  );
}
