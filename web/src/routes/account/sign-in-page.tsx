import { zodResolver } from "@hookform/resolvers/zod";
import type { UserView } from "@tp/domain/api";
import { uiMessages } from "@tp/domain/messages";
import { type LoginRequest, loginSchema } from "@tp/domain/validation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast/headless";
import { ApiError, errorMessage } from "../../api/client.ts";
import {
  LoginResponseInvalid,
  type LoginResult,
  loginEnrol,
  loginSecondFactor,
  useLoginMutation,
} from "../../api/login.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { AuthCard } from "../../components/auth-card.tsx";
import { Button } from "../../components/button.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { applyServerFieldErrors } from "../../components/server-field-errors.ts";
import { TextLink } from "../../components/text-link.tsx";
import { useProofOfWork } from "../../components/use-proof-of-work.tsx";
import { paths } from "../../paths.ts";
import { CodeForm } from "../../two-factor/code-form.tsx";
import { RecoveryCodes } from "../../two-factor/recovery-codes.tsx";
import { TotpSetup } from "../../two-factor/totp-setup.tsx";
import { PasskeySignInButton } from "./passkey-sign-in-button.tsx";

type SignInValues = { email: string; password: string };

/** SPEC §8 Login: field errors, or the message, or "Login failed". */
function loginFailureText(error: unknown): string {
  if (error instanceof ApiError) return errorMessage(error, uiMessages.loginFailed);
  if (error instanceof LoginResponseInvalid) return uiMessages.loginInvalidResponse;
  return uiMessages.loginFailed;
}

/**
 * After a successful login the route guard around this page (RedirectIfSignedIn) takes the
 * trader to the dashboard, or back to the /user page that sent them here.
 */
/** After the password: the code step, the staff enrolment step, or the codes shown once. */
type SignInStep =
  | { kind: "password" }
  | Extract<LoginResult, { kind: "second_factor" | "enrol_totp" }>
  | { kind: "recovery_codes"; user: UserView; token: string; codes: string[] };

export function SignInPage() {
  const [step, setStep] = useState<SignInStep>({ kind: "password" });
  if (step.kind === "password") return <PasswordStep onStep={setStep} />;
  return (
    <SecondStep step={step} onRestart={() => setStep({ kind: "password" })} onStep={setStep} />
  );
}

function SecondStep({
  step,
  onRestart,
  onStep,
}: {
  step: Exclude<SignInStep, { kind: "password" }>;
  onRestart: () => void;
  onStep: (step: SignInStep) => void;
}) {
  const auth = useAuth();
  const footer = (
    <button
      type="button"
      className="font-semibold text-brand-600 hover:underline"
      onClick={onRestart}
    >
      Start again
    </button>
  );
  if (step.kind === "second_factor") {
    const hasCode = step.methods.includes("totp");
    const hasPasskey = step.methods.includes("passkey");
    return (
      <AuthCard
        title="Two-factor authentication"
        subtitle={
          hasCode
            ? "Enter the six-digit code from your authenticator app, or one of your recovery codes."
            : "Confirm it is you with your passkey."
        }
        footer={footer}
      >
        {hasCode && (
          <CodeForm
            submitLabel="Verify"
            onCode={async (code) => {
              const result = await loginSecondFactor({ sign_in_token: step.signInToken, code });
              toast.success(uiMessages.loginSuccess);
              auth.login(result.user, result.token);
            }}
          />
        )}
        {hasPasskey && (
          <div className={hasCode ? "mt-4 flex flex-col" : "flex flex-col"}>
            <PasskeySignInButton
              signInToken={step.signInToken}
              label={hasCode ? "Use a passkey instead" : "Use your passkey"}
            />
          </div>
        )}
      </AuthCard>
    );
  }
  if (step.kind === "enrol_totp") {
    return (
      <AuthCard
        title="Set up two-factor authentication"
        subtitle="Staff accounts need two-factor authentication. Set it up now to continue."
        footer={footer}
      >
        <TotpSetup
          otpauthUri={step.otpauthUri}
          secret={step.secret}
          onCode={async (code) => {
            const result = await loginEnrol({ sign_in_token: step.signInToken, code });
            onStep({
              kind: "recovery_codes",
              user: result.user,
              token: result.token,
              codes: result.recoveryCodes,
            });
          }}
        />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Your recovery codes" subtitle="Two-factor authentication is on.">
      <RecoveryCodes
        codes={step.codes}
        onDone={() => {
          toast.success(uiMessages.loginSuccess);
          auth.login(step.user, step.token);
        }}
      />
    </AuthCard>
  );
}

function PasswordStep({ onStep }: { onStep: (step: SignInStep) => void }) {
  const auth = useAuth();
  const loginMutation = useLoginMutation();
  const challenge = useProofOfWork();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues, unknown, LoginRequest>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: "", password: "" },
  });

  const onValid = async (values: LoginRequest) => {
    try {
      const result = await loginMutation.mutateAsync(challenge.withPayload(values));
      if (result.kind !== "signed_in") {
        onStep(result);
        return;
      }
      toast.success(uiMessages.loginSuccess);
      auth.login(result.user, result.token);
    } catch (error) {
      challenge.afterFailure(error);
      applyServerFieldErrors(error, setError, ["email", "password"]);
      toast.error(loginFailureText(error));
    }
  };

  return (
    <AuthCard
      title="Sign in"
      subtitle="Welcome back. Sign in to trade and manage your account."
      footer={
        <>
          New here? <TextLink to={paths.signUp}>Create an account</TextLink>
        </>
      }
    >
      <form noValidate onSubmit={handleSubmit(onValid)} className="flex flex-col gap-4">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register("email")}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register("password")}
        />
        {challenge.field}
        <div className="-mt-1 text-right text-sm">
          <TextLink to={paths.forgotPassword}>Forgot password?</TextLink>
        </div>
        <Button type="submit" size="lg" busy={isSubmitting}>
          Sign in
        </Button>
        <PasskeySignInButton />
      </form>
    </AuthCard>
  );
}
