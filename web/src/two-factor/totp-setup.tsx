import { QrCode } from "../funding/qr-code.tsx";
import { CodeForm } from "./code-form.tsx";

/**
 * Setting up an authenticator app: the QR code of the otpauth:// URI, the secret for typing
 * in by hand, and the field for the first code that confirms it.
 */
export function TotpSetup({
  otpauthUri,
  secret,
  onCode,
}: {
  otpauthUri: string;
  secret: string;
  onCode: (code: string) => Promise<void>;
}) {
  return (
    <div className="flex flex-col gap-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-600 dark:text-slate-400">
        <li>Open an authenticator app (Google Authenticator, 1Password, Authy…).</li>
        <li>Scan this QR code, or type in the key below.</li>
        <li>Enter the six-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
        <QrCode value={otpauthUri} label="QR code for your authenticator app" />
        <div className="min-w-0 text-sm">
          <p className="text-slate-600 dark:text-slate-400">Setup key</p>
          <code data-testid="totp-secret" className="break-all font-mono font-semibold">
            {secret}
          </code>
        </div>
      </div>
      <CodeForm submitLabel="Turn on two-factor authentication" onCode={onCode} />
    </div>
  );
}
