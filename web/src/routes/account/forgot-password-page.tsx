import { zodResolver } from "@hookform/resolvers/zod";
import { serverMessages } from "@tp/domain/messages";
import { type EmailOnlyRequest, emailOnlySchema } from "@tp/domain/validation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import { useForgotPasswordMutation } from "../../api/forgot-password.ts";
import { AuthCard } from "../../components/auth-card.tsx";
import { Button } from "../../components/button.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { CheckCircleIcon } from "../../components/icons.tsx";
import { applyServerFieldErrors } from "../../components/server-field-errors.ts";
import { TextLink } from "../../components/text-link.tsx";
import { useProofOfWork } from "../../components/use-proof-of-work.tsx";
import { paths } from "../../paths.ts";

const request_failed_text = "The reset link could not be requested. Please try again.";

export function ForgotPasswordPage() {
  const forgotPassword = useForgotPasswordMutation();
  const challenge = useProofOfWork();
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ email: string }, unknown, EmailOnlyRequest>({
    resolver: zodResolver(emailOnlySchema),
    defaultValues: { email: "" },
  });

  const onValid = async (values: EmailOnlyRequest) => {
    try {
      const reply = await forgotPassword.mutateAsync(challenge.withPayload(values));
      setSentMessage(reply.message ?? serverMessages.forgotPasswordNeutral);
    } catch (error) {
      challenge.afterFailure(error);
      applyServerFieldErrors(error, setError, ["email"]);
      toast.error(errorMessage(error, request_failed_text));
    }
  };

  return (
    <AuthCard
      title="Forgot password"
      subtitle="Enter the e-mail address of your account and we will send you a reset link."
      footer={<TextLink to={paths.signIn}>Back to sign in</TextLink>}
    >
      {sentMessage ? (
        <div
          role="status"
          className="flex gap-3 rounded-xl bg-emerald-50 p-4 text-sm text-emerald-900 dark:bg-emerald-500/10 dark:text-emerald-200"
        >
          <CheckCircleIcon className="size-5 shrink-0" />
          <p>{sentMessage}</p>
        </div>
      ) : (
        <form noValidate onSubmit={handleSubmit(onValid)} className="flex flex-col gap-4">
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...register("email")}
          />
          {challenge.field}
          <Button type="submit" size="lg" busy={isSubmitting}>
            Send reset link
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
