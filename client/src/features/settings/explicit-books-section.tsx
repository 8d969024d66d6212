import type { CurrentUser } from "@shared/auth";
import { PreferenceToggle } from "@/features/settings/preference-toggle";
import { useUpdateExplicitBooks } from "@/features/settings/use-account-settings";

const TEXTS = {
  title: "settings.explicit.title",
  label: "settings.explicit.showExplicit",
  hint: "settings.explicit.showExplicitHint",
  savedOn: "settings.explicit.savedOn",
  savedOff: "settings.explicit.savedOff",
};

/** Whether explicit books are shown to the reader: off until they choose it (docs/product.md#content-ratings). */
export function ExplicitBooksSection({ user }: { user: CurrentUser }) {
  return (
    <PreferenceToggle
      texts={TEXTS}
      testIds={{ box: "show-explicit", saved: "explicit-books-saved" }}
      valueOf={(account) => account.showExplicit}
      inputOf={(showExplicit) => ({ showExplicit })}
      checkedIn={(input) => input.showExplicit}
      update={useUpdateExplicitBooks()}
      user={user}
    />
  );
}
