import { DIGEST_UNSUBSCRIBE_PATH, UNSUBSCRIBE_TOKEN } from "@shared/follows";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useSearch } from "wouter";
import { apiRequest } from "@/lib/api";
import { errorText } from "@/lib/error-text";
import { FormAlert } from "@/ui/form-alert";
import { PageFrame } from "@/ui/page-frame";
import { buttonClassName, panelClassName, textLinkClassName } from "@/ui/styles";

/**
 * The page a digest's unsubscribe link opens (docs/product.md#follows): it says what will happen and
 * turns the digest off only when the button is pressed, since mail scanners open links on their own.
 * The button POSTs to the same link, as a mail program's one-click unsubscribe does (RFC 8058).
 */
export function UnsubscribePage() {
  const { t } = useTranslation();
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const valid = UNSUBSCRIBE_TOKEN.test(token);
  const unsubscribe = useMutation({
    mutationFn: () => apiRequest("POST", `${DIGEST_UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`),
  });
  return (
    <PageFrame title={t("following.unsubscribe.title")}>
      <div className={`mt-8 max-w-2xl ${panelClassName}`}>
        <div className="flex flex-col gap-4">
          {!valid ? (
            <p data-testid="unsubscribe-invalid">{t("following.unsubscribe.invalidLink")}</p>
          ) : unsubscribe.isSuccess ? (
            <p role="status" data-testid="unsubscribe-done">
              {t("following.unsubscribe.done")}
            </p>
          ) : (
            <>
              <p>{t("following.unsubscribe.intro")}</p>
              <FormAlert message={unsubscribe.isError ? errorText(unsubscribe.error) : undefined} />
              <button
                type="button"
                data-testid="unsubscribe-button"
                disabled={unsubscribe.isPending}
                onClick={() => unsubscribe.mutate()}
                className={buttonClassName("primary", "self-start")}
              >
                {t("following.unsubscribe.action")}
              </button>
            </>
          )}
          <p>
            <Link href="/settings#digest" className={textLinkClassName}>
              {t("following.unsubscribe.settingsLink")}
            </Link>
          </p>
        </div>
      </div>
    </PageFrame>
  );
}
