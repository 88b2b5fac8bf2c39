import { zodResolver } from "@hookform/resolvers/zod";
import { uiMessages } from "@tp/domain/messages";
import { type LoginRequest, loginSchema } from "@tp/domain/validation";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast/headless";
import { ApiError, errorMessage } from "../../api/client.ts";
import { LoginResponseInvalid, useLoginMutation } from "../../api/login.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { AuthCard } from "../../components/auth-card.tsx";
import { Button } from "../../components/button.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { applyServerFieldErrors } from "../../components/server-field-errors.ts";
import { TextLink } from "../../components/text-link.tsx";
import { paths } from "../../paths.ts";

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
export function SignInPage() {
  const auth = useAuth();
  const loginMutation = useLoginMutation();
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
      const result = await loginMutation.mutateAsync(values);
      toast.success(uiMessages.loginSuccess);
      auth.login(result.user, result.token);
    } catch (error) {
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
        <div className="-mt-1 text-right text-sm">
          <TextLink to={paths.forgotPassword}>Forgot password?</TextLink>
        </div>
        <Button type="submit" size="lg" busy={isSubmitting}>
          Sign in
        </Button>
      </form>
    </AuthCard>
  );
}
