import { zodResolver } from "@hookform/resolvers/zod";
import { loginSchema, type LoginInput } from "@shared/auth";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { AuthCard } from "@/features/accounts/auth-card";
import { FormAlert } from "@/ui/form-alert";
import { textLinkClassName } from "@/ui/styles";
import { SubmitButton } from "@/ui/submit-button";
import { TextField } from "@/ui/text-field";
import { useLogin } from "@/features/accounts/use-auth-mutations";
import { showServerErrors } from "@/lib/form-errors";

export function LoginPage() {
  const { t } = useTranslation();
  const login = useLogin();
  const form = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: "", password: "" },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;

  // React ignores what onSubmit returns; handleSubmit's promise rejects only if this callback throws, and mutate never does.
  const submit = handleSubmit((credentials) =>
    login.mutate(credentials, { onError: (error) => showServerErrors(error, form) }),
  );

  return (
    <AuthCard
      title={t("auth.login.title")}
      subtitle={t("auth.login.subtitle")}
      switchPrompt={t("auth.login.noAccount")}
      switchLinkLabel={t("auth.login.registerLink")}
      switchLinkPath="/register"
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
        <FormAlert message={errors.root?.server?.message} />
        <TextField
          label={t("auth.login.username")}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          errorKey={errors.username?.message}
          {...register("username")}
        />
        <TextField
          label={t("auth.login.password")}
          type="password"
          autoComplete="current-password"
          required
          errorKey={errors.password?.message}
          {...register("password")}
        />
        <p className="-mt-2 text-right text-sm">
          <Link href="/forgot-password" className={textLinkClassName} data-testid="forgot-password-link">
            {t("passwordReset.forgotLink")}
          </Link>
        </p>
        <SubmitButton
          testId="login-submit"
          isPending={login.isPending}
          label={t("auth.login.submit")}
          pendingLabel={t("auth.login.pending")}
        />
      </form>
    </AuthCard>
  );
}
