import type { CurrentUser } from "@shared/auth";
import { readerPath } from "@shared/shelves";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { PreferenceToggle } from "@/features/settings/preference-toggle";
import { useUpdatePublicShelves } from "@/features/settings/use-account-settings";
import { textLinkClassName } from "@/ui/styles";

const TEXTS = {
  title: "settings.publicShelves.title",
  label: "settings.publicShelves.label",
  hint: "settings.publicShelves.hint",
  savedOn: "settings.publicShelves.savedOn",
  savedOff: "settings.publicShelves.savedOff",
};

/**
 * Whether the reader's shelves are shown to anyone at /readers/{username}: their username and shelved
 * books, nothing else of the account; off until they choose it (docs/product.md#shelves).
 */
export function PublicShelvesSection({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  return (
    <PreferenceToggle
      texts={TEXTS}
      testIds={{ box: "shelves-public", saved: "public-shelves-saved" }}
      valueOf={(account) => account.shelvesPublic}
      inputOf={(shelvesPublic) => ({ shelvesPublic })}
      checkedIn={(input) => input.shelvesPublic}
      update={useUpdatePublicShelves()}
      user={user}
    >
      {user.shelvesPublic && (
        <p className="text-sm">
          <Link href={readerPath(user.username)} className={textLinkClassName} data-testid="public-shelves-link">
            {t("settings.publicShelves.address")}: {readerPath(user.username)}
          </Link>
        </p>
      )}
    </PreferenceToggle>
  );
}
