import { useState } from "react";
import { useTwoFactorStatus } from "../api/two-factor.ts";
import { useAuth } from "../auth/auth-context.ts";
import { Button, ButtonLink } from "../components/button.tsx";
import { paths } from "../paths.ts";

/** Remembered per user (one browser may serve several traders), like the risk warning. */
function dismissedKey(userId: number) {
  return `two_factor_prompt_dismissed:${userId}`;
}

function wasDismissed(userId: number): boolean {
  try {
    return window.localStorage.getItem(dismissedKey(userId)) !== null;
  } catch {
    return false;
  }
}

/**
 * Issue 12: traders are asked once to turn on two-factor authentication when their real
 * balance is above zero (there is money to protect). Dismissed, it stays away.
 */
export function TwoFactorPrompt() {
  const { user } = useAuth();
  const hasMoney = user !== null && user.role === "trader" && user.account.account_balance > 0;
  const [dismissed, setDismissed] = useState(() => (user ? wasDismissed(user.id) : true));
  const status = useTwoFactorStatus(hasMoney && !dismissed);
  if (!user || !hasMoney || dismissed || status.data?.enabled !== false) return null;
  const dismiss = () => {
    try {
      window.localStorage.setItem(dismissedKey(user.id), new Date().toISOString());
    } catch {
      // Private mode: the notice comes back next visit, which is harmless.
    }
    setDismissed(true);
  };
  return (
    <section
      aria-label="Protect your account"
      className="flex flex-col gap-3 rounded-xl border border-brand-600/30 bg-brand-600/5 p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="text-sm">
        <strong>Protect your money.</strong> Turn on two-factor authentication so a stolen password
        alone cannot sign in or withdraw.
      </p>
      <div className="flex shrink-0 gap-2">
        <ButtonLink to={paths.user.security} size="sm">
          Turn on
        </ButtonLink>
        <Button variant="ghost" size="sm" onClick={dismiss}>
          Not now
        </Button>
      </div>
    </section>
  );
}
