import { payment_method_instructions_max } from "@tp/domain/funding";
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

/** The method's instructions to traders, one line per row. */
export function PaymentMethodInstructionRows({
  control,
  register,
  errors,
}: {
  control: Control<MethodFormInput, unknown, MethodFormValues>;
  register: UseFormRegister<MethodFormInput>;
  errors: FieldErrors<MethodFormInput>;
}) {
  const instructions = useFieldArray({ control, name: "instructions" });
  return (
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
  );
}
