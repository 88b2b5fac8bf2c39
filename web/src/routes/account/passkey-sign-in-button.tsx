import { browserSupportsWebAuthn } from "@simplewebauthn/browser";
import { uiMessages } from "@tp/domain/messages";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import { usePasskeySignInMutation } from "../../api/passkeys.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { Button } from "../../components/button.tsx";

/**
 * "Sign in with a passkey" on the sign-in page: no e-mail, no password; the browser offers
 * this site's passkeys (discoverable credentials) and the server answers as POST /login
 * does. With `signInToken` the passkey is the second factor of a sign-in that passed its
 * password. Hidden where the browser has no WebAuthn.
 */
export function PasskeySignInButton({
  signInToken,
  label = "Sign in with a passkey",
}: {
  signInToken?: string;
  label?: string;
} = {}) {
  const auth = useAuth();
  const signIn = usePasskeySignInMutation();
  if (!browserSupportsWebAuthn()) return null;

  const onClick = async () => {
    try {
      const result = await signIn.mutateAsync(signInToken);
      toast.success(uiMessages.loginSuccess);
      auth.login(result.user, result.token);
    } catch (error) {
      // A cancelled prompt or a passkey that does not verify: the server's message, if any.
      toast.error(errorMessage(error, uiMessages.loginFailed));
    }
  };

  return (
    <Button type="button" variant="secondary" size="lg" busy={signIn.isPending} onClick={onClick}>
      {label}
    </Button>
  );
}
