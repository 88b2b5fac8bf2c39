import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import {
  type AdminPaymentMethod,
  adminMessages,
  type UpdatePaymentMethodRequest,
} from "@tp/domain/admin-api";
import {
  type PaymentMethodKind,
  payment_method_detail_key_length_max,
  payment_method_details_max,
  payment_method_instructions_max,
  payment_method_name_length_max,
  payment_method_text_length_max,
  usesWalletAddress,
} from "@tp/domain/funding";
import { useState } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { z } from "zod";
import { errorMessage } from "../../api/client.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { CheckboxField, TextField } from "../../components/form-fields.tsx";
import { CloseIcon } from "../../components/icons.tsx";
import { LoadingScreen } from "../../components/loading-screen.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { paymentMethodPath, paymentMethodsQuery } from "../api/payment-methods.ts";
import { useRunAdminAction } from "../api/use-run-admin-action.ts";
import { formatDateTime, humanizeKey } from "../components/admin-format.ts";
import { Flag } from "../components/flag.tsx";
import { PortalModal } from "../components/portal-modal.tsx";

const kindLabels: Record<PaymentMethodKind, string> = {
  crypto: "Crypto",
  bank: "Bank transfer",
  money_transfer: "Money transfer",
  e_wallet: "E-wallet",
};

/** The details each kind needs to be offered (SPEC §9), pre-filled as empty rows. */
const suggestedDetailKeys: Record<PaymentMethodKind, readonly string[]> = {
  crypto: [],
  e_wallet: [],
  bank: ["bank_name", "account_name", "account_number", "swift_code"],
  money_transfer: ["location"],
};

/** What the trader's deposit flow needs before the method stops being "Currently unavailable". */
const configurationNeeds: Record<PaymentMethodKind, string> = {
  crypto: "a wallet address",
  e_wallet: "an account id (wallet address)",
  bank: "a bank name",
  money_transfer: "a location",
};

/** Payment methods (PRODUCT.md D7): what traders see on the funding page, edited by staff. */
export function PaymentMethodsPage() {
  const query = useQuery(paymentMethodsQuery());
  const [editing, setEditing] = useState<string | null>(null);
  const method = query.data?.find((item) => item.id === editing) ?? null;

  return (
    <>
      <PageTitle
        title="Payment methods"
        description="A method shows to traders as available once it is active and configured."
      />
      {query.isLoading ? (
        <LoadingScreen />
      ) : !query.data ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {errorMessage(query.error, "The payment methods could not be loaded")}
        </p>
      ) : (
        <div className="grid gap-3 md:grid-cols-2 2xl:grid-cols-3">
          {query.data.map((item) => (
            <MethodCard key={item.id} method={item} onEdit={() => setEditing(item.id)} />
          ))}
        </div>
      )}
      {method ? (
        <EditMethodDialog key={method.id} method={method} onClose={() => setEditing(null)} />
      ) : null}
    </>
  );
}

function MethodCard({ method, onEdit }: { method: AdminPaymentMethod; onEdit: () => void }) {
  const details = Object.entries(method.additional_details);
  return (
    <Card as="article" className="flex flex-col gap-3">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="truncate font-semibold">{method.name}</h2>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {method.id} · {kindLabels[method.kind]}
          </p>
        </div>
        <Button variant="secondary" size="sm" onClick={onEdit} aria-label={`Edit ${method.name}`}>
          Edit
        </Button>
      </div>
      <div className="flex flex-wrap gap-1">
        <Flag on={method.is_available} label={method.is_available ? "Available" : "Unavailable"} />
        <Flag on={method.is_active} label={method.is_active ? "Active" : "Inactive"} />
        {method.is_recommended ? <Flag on label="Recommended" /> : null}
      </div>
      {!method.is_available && method.is_active ? (
        <p className="text-xs text-amber-700 dark:text-amber-300">
          Needs {configurationNeeds[method.kind]} before traders can use it.
        </p>
      ) : null}
      <dl className="grid gap-1 text-xs">
        {usesWalletAddress(method.kind) ? (
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Wallet address</dt>
            <dd className="break-all font-mono">{method.wallet_address || "—"}</dd>
          </div>
        ) : null}
        {details.map(([key, value]) => (
          <div key={key}>
            <dt className="text-slate-500 dark:text-slate-400">{humanizeKey(key)}</dt>
            <dd className="break-words font-medium">{value}</dd>
          </div>
        ))}
        {method.instructions.length > 0 ? (
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Instructions</dt>
            <dd>{method.instructions.length} lines</dd>
          </div>
        ) : null}
      </dl>
      <p className="mt-auto text-[11px] text-slate-400">
        Updated {formatDateTime(method.updated_at)}
      </p>
    </Card>
  );
}

const textTooLong = `At most ${payment_method_text_length_max} characters`;
const detailKeyPattern = /^[A-Za-z][A-Za-z0-9_ ]*$/;

/**
 * The form's own shape (lists of rows for react-hook-form), checked with the contract's
 * limits and messages; `toRequest` turns it into PUT /admin/payment-methods/{id}.
 */
const methodFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Name is required")
      .max(payment_method_name_length_max, `At most ${payment_method_name_length_max} characters`),
    is_active: z.boolean(),
    is_recommended: z.boolean(),
    wallet_address: z.string().trim().max(payment_method_text_length_max, textTooLong),
    instructions: z
      .array(z.object({ text: z.string().trim().max(payment_method_text_length_max, textTooLong) }))
      .max(payment_method_instructions_max, `At most ${payment_method_instructions_max} lines`),
    details: z.array(
      z.object({
        key: z.string().trim(),
        value: z.string().trim().max(payment_method_text_length_max, textTooLong),
      }),
    ),
  })
  .superRefine((values, context) => {
    const seen = new Set<string>();
    let filled = 0;
    values.details.forEach((detail, index) => {
      if (detail.value.length === 0) return;
      filled += 1;
      const path = ["details", index, "key"];
      if (detail.key.length === 0) {
        context.addIssue({ code: "custom", path, message: "A key is required" });
      } else if (!detailKeyPattern.test(detail.key)) {
        context.addIssue({
          code: "custom",
          path,
          message: "Keys are letters, digits, spaces and underscores",
        });
      } else if (detail.key.length > payment_method_detail_key_length_max) {
        context.addIssue({
          code: "custom",
          path,
          message: `Keys have at most ${payment_method_detail_key_length_max} characters`,
        });
      } else if (seen.has(detail.key)) {
        context.addIssue({ code: "custom", path, message: "This key is already used" });
      }
      seen.add(detail.key);
    });
    if (filled > payment_method_details_max) {
      context.addIssue({
        code: "custom",
        path: ["details"],
        message: `At most ${payment_method_details_max} details`,
      });
    }
  });
type MethodFormInput = z.input<typeof methodFormSchema>;
type MethodFormValues = z.output<typeof methodFormSchema>;

function formValuesOf(method: AdminPaymentMethod): MethodFormInput {
  const details = Object.entries(method.additional_details).map(([key, value]) => ({
    key,
    value,
  }));
  for (const key of suggestedDetailKeys[method.kind]) {
    if (!(key in method.additional_details)) details.push({ key, value: "" });
  }
  return {
    name: method.name,
    is_active: method.is_active,
    is_recommended: method.is_recommended,
    wallet_address: method.wallet_address ?? "",
    instructions: method.instructions.map((text) => ({ text })),
    details,
  };
}

/** Empty instruction lines and details without a value are left out (a cleared field goes). */
export function toRequest(
  kind: PaymentMethodKind,
  values: MethodFormValues,
): UpdatePaymentMethodRequest {
  const additional_details: Record<string, string> = {};
  for (const detail of values.details) {
    if (detail.value.length > 0) additional_details[detail.key] = detail.value;
  }
  return {
    name: values.name,
    is_active: values.is_active,
    is_recommended: values.is_recommended,
    ...(usesWalletAddress(kind) ? { wallet_address: values.wallet_address || null } : {}),
    instructions: values.instructions.map((line) => line.text).filter((text) => text.length > 0),
    additional_details,
  };
}

function EditMethodDialog({
  method,
  onClose,
}: {
  method: AdminPaymentMethod;
  onClose: () => void;
}) {
  const run = useRunAdminAction();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<MethodFormInput, unknown, MethodFormValues>({
    resolver: zodResolver(methodFormSchema),
    defaultValues: formValuesOf(method),
  });
  const instructions = useFieldArray({ control, name: "instructions" });
  const details = useFieldArray({ control, name: "details" });

  const onValid = async (values: MethodFormValues) => {
    const outcome = await run(
      { method: "PUT", path: paymentMethodPath(method.id), body: toRequest(method.kind, values) },
      {
        success: adminMessages.paymentMethodUpdated,
        failure: "The payment method could not be saved",
      },
    );
    if (outcome === true) onClose();
  };

  return (
    <PortalModal
      title={`Edit ${method.name}`}
      size="lg"
      onClose={onClose}
      dismissible={!isSubmitting}
    >
      <form noValidate onSubmit={handleSubmit(onValid)} className="flex flex-col gap-5">
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {method.id} · {kindLabels[method.kind]}. Traders can use it once it is active and has{" "}
          {configurationNeeds[method.kind]}.
        </p>
        <TextField label="Name" error={errors.name?.message} {...register("name")} />
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <CheckboxField label="Active" {...register("is_active")} />
          <CheckboxField label="Recommended" {...register("is_recommended")} />
        </div>
        {usesWalletAddress(method.kind) ? (
          <TextField
            label={method.kind === "e_wallet" ? "Account id (wallet address)" : "Wallet address"}
            spellCheck={false}
            autoComplete="off"
            className="[&_input]:font-mono"
            error={errors.wallet_address?.message}
            {...register("wallet_address")}
          />
        ) : null}

        <fieldset>
          <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
            Details shown to traders
          </legend>
          <div className="flex flex-col gap-2">
            {details.fields.map((field, index) => (
              <div
                key={field.id}
                className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto] gap-2"
              >
                <TextField
                  label={`Detail ${index + 1} key`}
                  className="[&_label]:sr-only"
                  placeholder="key"
                  error={errors.details?.[index]?.key?.message}
                  {...register(`details.${index}.key`)}
                />
                <TextField
                  label={`Detail ${index + 1} value`}
                  className="[&_label]:sr-only"
                  placeholder="value"
                  error={errors.details?.[index]?.value?.message}
                  {...register(`details.${index}.value`)}
                />
                <button
                  type="button"
                  onClick={() => details.remove(index)}
                  aria-label={`Remove detail ${index + 1}`}
                  className="mt-1.5 self-start rounded-lg p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700 dark:hover:bg-navy-800"
                >
                  <CloseIcon className="size-4" />
                </button>
              </div>
            ))}
            {errors.details?.message ? (
              <p className="text-xs font-medium text-red-600">{errors.details.message}</p>
            ) : null}
            <div>
              <Button
                variant="ghost"
                size="sm"
                disabled={details.fields.length >= payment_method_details_max}
                onClick={() => details.append({ key: "", value: "" })}
              >
                + Add detail
              </Button>
            </div>
          </div>
        </fieldset>

        <fieldset>
          <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
            Instructions
          </legend>
          <div className="flex flex-col gap-2">
            {instructions.fields.map((field, index) => (
              <div key={field.id} className="grid grid-cols-[minmax(0,1fr)_auto] gap-2">
                <TextField
                  label={`Instruction ${index + 1}`}
                  className="[&_label]:sr-only"
                  error={errors.instructions?.[index]?.text?.message}
                  {...register(`instructions.${index}.text`)}
                />
                <button
                  type="button"
                  onClick={() => instructions.remove(index)}
                  aria-label={`Remove instruction ${index + 1}`}
                  className="mt-1.5 self-start rounded-lg p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700 dark:hover:bg-navy-800"
                >
                  <CloseIcon className="size-4" />
                </button>
              </div>
            ))}
            <div>
              <Button
                variant="ghost"
                size="sm"
                disabled={instructions.fields.length >= payment_method_instructions_max}
                onClick={() => instructions.append({ text: "" })}
              >
                + Add instruction
              </Button>
            </div>
          </div>
        </fieldset>

        <div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-4 sm:flex-row sm:justify-end dark:border-navy-700">
          <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" busy={isSubmitting}>
            Save changes
          </Button>
        </div>
      </form>
    </PortalModal>
  );
}
