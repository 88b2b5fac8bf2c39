import { zodResolver } from "@hookform/resolvers/zod";
import { uiMessages } from "@tp/domain/messages";
import { type ResetPasswordRequest, resetPasswordSchema } from "@tp/domain/validation";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast/headless";
import { useNavigate, useSearchParams } from "react-router";
import { errorMessage } from "../../api/client.ts";
import { useResetPasswordMutation } from "../../api/reset-password.ts";
import { AuthCard } from "../../components/auth-card.tsx";
import { Button } from "../../components/button.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { applyServerFieldErrors } from "../../components/server-field-errors.ts";
import { TextLink } from "../../components/text-link.tsx";
import { paths } from "../../paths.ts";

type ResetValues = {
  email: string;
  token: string;
  password: string;
  password_confirmation: string;
};

/** SPEC §2: needs ?token= and ?email=; without either it says so and goes to forgot-password. */
export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token");
  const email = searchParams.get("email");
  const navigate = useNavigate();
  const linkValid = Boolean(token && email);

  useEffect(() => {
    if (linkValid) return;
    // A fixed id: React's development double effects must not show the toast twice.
    toast.error(uiMessages.resetInvalidLink, { id: "invalid-reset-link" });
    navigate(paths.forgotPassword, { replace: true });
  }, [linkValid, navigate]);

  if (!linkValid || token === null || email === null) {
    return (
      <AuthCard title="Reset password">
        <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">
          {uiMessages.resetInvalidLink}
        </p>
      </AuthCard>
    );
  }
  return <ResetPasswordForm email={email} token={token} />;
}

function ResetPasswordForm({ email, token }: { email: string; token: string }) {
  const navigate = useNavigate();
  const resetPassword = useResetPasswordMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetValues, unknown, ResetPasswordRequest>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { email, token, password: "", password_confirmation: "" },
  });

  const onValid = async (values: ResetPasswordRequest) => {
    try {
      await resetPassword.mutateAsync(values);
      toast.success(uiMessages.resetSuccess);
      navigate(paths.signIn, { replace: true });
    } catch (error) {
      applyServerFieldErrors(error, setError, ["password", "password_confirmation"]);
      toast.error(errorMessage(error, uiMessages.resetFailed));
    }
  };

  // The link's e-mail and token are part of the form but not editable; a bad one is the link's fault.
  const linkError = errors.email?.message ?? errors.token?.message;

  return (
    <AuthCard
      title="Reset password"
      subtitle={
        <>
          Choose a new password for <span className="font-semibold break-all">{email}</span>.
        </>
      }
      footer={<TextLink to={paths.signIn}>Back to sign in</TextLink>}
    >
      <form noValidate onSubmit={handleSubmit(onValid)} className="flex flex-col gap-4">
        {linkError ? (
          <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">
            {uiMessages.resetInvalidLink}
          </p>
        ) : null}
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          error={errors.password?.message}
          {...register("password")}
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          error={errors.password_confirmation?.message}
          {...register("password_confirmation")}
        />
        <Button type="submit" size="lg" busy={isSubmitting}>
          Reset password
        </Button>
      </form>
    </AuthCard>
  );
}
