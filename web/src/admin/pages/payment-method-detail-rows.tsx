import { payment_method_details_max } from "@tp/domain/funding";
import {
  type Control,
  type FieldErrors,
  type UseFormRegister,
  useFieldArray,
} from "react-hook-form";
import { Button } from "../../components/button.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { CloseIcon } from "../../components/icons.tsx";
import type { MethodFormInput, MethodFormValues } from "./payment-method-form.ts";

/** The method's key–value details traders see (bank name, account number, …), row by row. */
export function PaymentMethodDetailRows({
  control,
  register,
  errors,
}: {
  control: Control<MethodFormInput, unknown, MethodFormValues>;
  register: UseFormRegister<MethodFormInput>;
  errors: FieldErrors<MethodFormInput>;
}) {
  const details = useFieldArray({ control, name: "details" });
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
        Details shown to traders
      </legend>
      <div className="flex flex-col gap-2">
        {details.fields.map((field, index) => (
          <div key={field.id} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto] gap-2">
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
  );
}
