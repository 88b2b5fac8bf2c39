import { zodResolver } from "@hookform/resolvers/zod";
import type { ErrorCode } from "@tp/domain/error-codes";
import { type ReactNode, useId, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { ApiError, fieldErrorsOf } from "../../api/client.ts";
import { Button, type ButtonVariant } from "../../components/button.tsx";
import { PortalModal } from "./portal-modal.tsx";

/**
 * The two dialogs every review decision goes through: a confirmation where money moves, and
 * a one-field form (a rejection reason, a payout reference) checked with the contract's
 * schema. Both stay open while the call runs and close only when it succeeded.
 */

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  variant = "primary",
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  variant?: ButtonVariant;
  /** Runs the action (which reports its own outcome); the dialog then closes. */
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      onClose();
    }
  };
  return (
    <PortalModal
      title={title}
      onClose={onClose}
      dismissible={!busy}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant={variant} onClick={confirm} busy={busy} data-autofocus>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="text-sm text-slate-700 dark:text-slate-300">{children}</div>
    </PortalModal>
  );
}

type TextValues = { text: string };

/** Someone else decided first, or the item is gone: nothing is left to decide here. */
const alreadyDecidedCodes: ReadonlySet<ErrorCode | null> = new Set<ErrorCode>([
  "NOT_FOUND",
  "DEPOSIT_NOT_UNDER_REVIEW",
  "WITHDRAWAL_NOT_PENDING",
  "VERIFICATION_NOT_PENDING",
]);

export function TextDecisionDialog({
  title,
  children,
  fieldLabel,
  fieldName,
  hint,
  schema,
  submitLabel,
  variant = "primary",
  onSubmit,
  onClose,
}: {
  title: string;
  children?: ReactNode;
  fieldLabel: string;
  /** The request field the server names in its field errors ("reason"). */
  fieldName: string;
  hint?: string;
  /** The contract's one-field schema, e.g. rejectSchema.shape.reason. */
  schema: z.ZodType<string, string>;
  submitLabel: string;
  variant?: ButtonVariant;
  /** Sends the text; resolves true when done (the dialog closes), else the error to show. */
  onSubmit: (text: string) => Promise<true | { error: unknown }>;
  onClose: () => void;
}) {
  const fieldId = useId();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TextValues>({
    resolver: zodResolver(z.object({ text: schema })),
    defaultValues: { text: "" },
  });
  const submit = handleSubmit(async ({ text }) => {
    const outcome = await onSubmit(text);
    if (outcome === true) {
      onClose();
      return;
    }
    // Someone else decided first or the item is gone: nothing left to do here.
    if (outcome.error instanceof ApiError && alreadyDecidedCodes.has(outcome.error.code)) {
      onClose();
      return;
    }
    // A 422 on the field (too long, say) shows under it; the toast already told the rest.
    const message = fieldErrorsOf(outcome.error)[fieldName]?.[0];
    if (message) setError("text", { type: "server", message });
  });
  const error = errors.text?.message;
  return (
    <PortalModal title={title} onClose={onClose} dismissible={!isSubmitting} size="lg">
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {children ? (
          <div className="text-sm text-slate-700 dark:text-slate-300">{children}</div>
        ) : null}
        <div>
          <label
            htmlFor={fieldId}
            className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200"
          >
            {fieldLabel}
          </label>
          <textarea
            id={fieldId}
            rows={3}
            data-autofocus
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined}
            className={`block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-xs focus:outline-none focus:ring-2 focus:ring-brand-500/40 dark:bg-navy-900 dark:text-slate-100 ${
              error
                ? "border-red-500 focus:border-red-500"
                : "border-slate-300 focus:border-brand-500 dark:border-navy-600"
            }`}
            {...register("text")}
          />
          {error ? (
            <p
              id={`${fieldId}-error`}
              className="mt-1.5 text-xs font-medium text-red-600 dark:text-red-400"
            >
              {error}
            </p>
          ) : hint ? (
            <p id={`${fieldId}-hint`} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
              {hint}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" variant={variant} busy={isSubmitting}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </PortalModal>
  );
}
