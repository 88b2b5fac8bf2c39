import { twoFactorMessages } from "@tp/domain/two-factor-messages";
import { type FormEvent, useState } from "react";
import { ApiError, errorMessage } from "../api/client.ts";
import { Button } from "../components/button.tsx";
import { TextField } from "../components/form-fields.tsx";

/**
 * One field for a code from the authenticator app (or a recovery code where allowed) and a
 * submit button. `onCode` throws on refusal; the server's message is shown under the field.
 */
export function CodeForm({
  label = "Authentication code",
  password = false,
  submitLabel,
  onCode,
}: {
  label?: string;
  /** A password instead of a code: hidden as typed, sent as typed (not trimmed). */
  password?: boolean;
  submitLabel: string;
  onCode: (code: string) => Promise<void>;
}) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim().length === 0) {
      setError(password ? twoFactorMessages.stepUpNeedsPassword : twoFactorMessages.codeRequired);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await onCode(password ? code : code.trim());
    } catch (caught) {
      setError(
        caught instanceof ApiError
          ? errorMessage(caught, twoFactorMessages.codeInvalid)
          : twoFactorMessages.codeInvalid,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <TextField
        label={label}
        type={password ? "password" : "text"}
        autoComplete={password ? "current-password" : "one-time-code"}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={error}
        data-autofocus
      />
      <Button type="submit" busy={busy}>
        {submitLabel}
      </Button>
    </form>
  );
}
