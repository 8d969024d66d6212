import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { type ButtonVariant, buttonClassName } from "@/ui/styles";

/** A visitor's way in, in the wide header and in a phone's menu: log in beside the call to sign up. */
export function SignInLinks({ className, loginVariant }: { className: string; loginVariant: ButtonVariant }) {
  const { t } = useTranslation();
  return (
    <div className={className}>
      <Link href="/login" className={buttonClassName(loginVariant)}>
        {t("nav.login")}
      </Link>
      <Link href="/register" className={buttonClassName("primary")}>
        {t("nav.register")}
      </Link>
    </div>
  );
}
