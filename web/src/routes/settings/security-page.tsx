import { zodResolver } from "@hookform/resolvers/zod";
import { uiMessages } from "@tp/domain/messages";
import { type UpdatePasswordRequest, updatePasswordSchema } from "@tp/domain/validation";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import { useUpdatePasswordMutation } from "../../api/update-password.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { DocumentIcon, LockIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { SectionTabs } from "../../components/section-tabs.tsx";
import { applyServerFieldErrors } from "../../components/server-field-errors.ts";
import { IdentityVerification } from "../../funding/identity-verification.tsx";
import { TwoFactorSection } from "../../two-factor/two-factor-section.tsx";
import { PasskeysSection } from "./passkeys-section.tsx";
import { SectionHeading } from "./section-heading.tsx";
import { SessionsSection } from "./sessions-section.tsx";
import { settingsTabs } from "./settings-tabs.ts";

type PasswordValues = { current_password: string; password: string; password_confirmation: string };

const emptyPasswords: PasswordValues = {
  current_password: "",
  password: "",
  password_confirmation: "",
};

function ChangePasswordForm() {
  const { user } = useAuth();
  const update = useUpdatePasswordMutation();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<PasswordValues, unknown, UpdatePasswordRequest>({
    resolver: zodResolver(updatePasswordSchema),
    defaultValues: emptyPasswords,
  });

  const onValid = async (values: UpdatePasswordRequest) => {
    try {
      const reply = await update.mutateAsync(values);
      reset(emptyPasswords);
      toast.success(reply.message ?? uiMessages.passwordSuccess);
    } catch (error) {
      applyServerFieldErrors(error, setError, [
        "current_password",
        "password",
        "password_confirmation",
      ]);
      // SPEC §7: the server's message is surfaced as the error.
      toast.error(errorMessage(error, uiMessages.passwordFailed));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid)} className="grid gap-4 md:grid-cols-3">
      {/* Tells password managers whose password this is; never shown, never sent. */}
      <input
        type="email"
        name="username"
        autoComplete="username"
        value={user?.email ?? ""}
        readOnly
        hidden
      />
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={errors.current_password?.message}
        {...register("current_password")}
      />
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
      <div className="flex justify-end md:col-span-3">
        <Button type="submit" busy={isSubmitting}>
          Update password
        </Button>
      </div>
    </form>
  );
}

export function SecurityPage() {
  const { user } = useAuth();
  return (
    <>
      <PageTitle
        title="Security"
        description="Your password, sessions and identity verification."
      />
      <SectionTabs label="Settings" tabs={settingsTabs} />
      <div className="flex flex-col gap-6">
        <Card aria-labelledby="change-password-title">
          <SectionHeading
            id="change-password-title"
            icon={<LockIcon className="size-5" />}
            title="Change password"
            text="At least 8 characters with an uppercase letter, a lowercase letter and a number; spaces and symbols are welcome."
          />
          <ChangePasswordForm />
        </Card>
        <TwoFactorSection />
        <PasskeysSection />
        <SessionsSection />
        <Card aria-labelledby="verification-title">
          <SectionHeading
            id="verification-title"
            icon={<DocumentIcon className="size-5" />}
            title="ID verification"
            text="Upload a passport, national ID or driver's licence (jpg, png or pdf, up to 10 MB) to verify your account."
          />
          <IdentityVerification kycVerifiedAt={user?.account.kyc_verified_at ?? null} />
        </Card>
      </div>
    </>
  );
}
