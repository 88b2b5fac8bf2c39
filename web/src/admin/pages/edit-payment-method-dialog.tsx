import { zodResolver } from "@hookform/resolvers/zod";
import { type AdminPaymentMethod, adminMessages } from "@tp/domain/admin-api";
import { usesWalletAddress } from "@tp/domain/funding";
import { useForm } from "react-hook-form";
import { Button } from "../../components/button.tsx";
import { CheckboxField, TextField } from "../../components/form-fields.tsx";
import { paymentMethodPath } from "../api/payment-methods.ts";
import { useRunAdminAction } from "../api/use-run-admin-action.ts";
import { PortalModal } from "../components/portal-modal.tsx";
import { PaymentMethodDetailRows } from "./payment-method-detail-rows.tsx";
import {
  formValuesOf,
  type MethodFormInput,
  type MethodFormValues,
  methodFormSchema,
  toRequest,
} from "./payment-method-form.ts";
import { PaymentMethodInstructionRows } from "./payment-method-instruction-rows.tsx";
import { configurationNeeds, kindLabels } from "./payment-method-kinds.ts";

/**
 * Proposes a change to one payment method: PUT /admin/payment-methods/{id}, closed once it
 * is stored; it takes effect when a second admin confirms it.
 */
export function EditPaymentMethodDialog({
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

  const onValid = async (values: MethodFormValues) => {
    const outcome = await run(
      {
        method: "PUT",
        path: paymentMethodPath(method.id),
        body: toRequest(method.kind, values, method),
      },
      {
        success: adminMessages.paymentMethodChangeProposed,
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

        <PaymentMethodDetailRows control={control} register={register} errors={errors} />

        <PaymentMethodInstructionRows control={control} register={register} errors={errors} />

        <fieldset className="grid gap-3 sm:grid-cols-2">
          <legend className="mb-1 text-sm font-semibold">Fees</legend>
          <p className="text-xs text-slate-500 sm:col-span-2 dark:text-slate-400">
            Taken out of the amount: a deposit credits the amount less its fee, a withdrawal pays
            out the amount less its fee. 0 and 0 is no fee. A request keeps the fee it was made
            with.
          </p>
          <TextField
            label="Deposit fee, fixed (USD)"
            inputMode="decimal"
            error={errors.deposit_fee_fixed?.message}
            {...register("deposit_fee_fixed")}
          />
          <TextField
            label="Deposit fee (%)"
            inputMode="decimal"
            error={errors.deposit_fee_percent?.message}
            {...register("deposit_fee_percent")}
          />
          <TextField
            label="Withdrawal fee, fixed (USD)"
            inputMode="decimal"
            error={errors.withdrawal_fee_fixed?.message}
            {...register("withdrawal_fee_fixed")}
          />
          <TextField
            label="Withdrawal fee (%)"
            inputMode="decimal"
            error={errors.withdrawal_fee_percent?.message}
            {...register("withdrawal_fee_percent")}
          />
        </fieldset>

        <div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-4 sm:flex-row sm:justify-end dark:border-navy-700">
          <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" busy={isSubmitting}>
            Propose change
          </Button>
        </div>
      </form>
    </PortalModal>
  );
}
