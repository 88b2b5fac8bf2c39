import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  useId,
} from "react";

/** Form controls with a <label> tied to the input and the error text tied by aria-describedby. */

const controlBase =
  "block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-xs placeholder:text-slate-400 transition-colors focus:outline-none focus-visible:outline-none focus:ring-2 focus:ring-brand-500/40 dark:bg-navy-900 dark:text-slate-100 dark:placeholder:text-slate-500";
const controlNormal = "border-slate-300 focus:border-brand-500 dark:border-navy-600";
const controlInvalid = "border-red-500 focus:border-red-500 focus:ring-red-500/30";
const controlReadOnly =
  "read-only:bg-slate-100 read-only:text-slate-600 read-only:cursor-not-allowed dark:read-only:bg-navy-800 dark:read-only:text-slate-400";

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const list = ids.filter((id): id is string => typeof id === "string");
  return list.length > 0 ? list.join(" ") : undefined;
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1.5 text-xs font-medium text-red-600 dark:text-red-400">
      {message}
    </p>
  );
}

function FieldLabel({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label
      htmlFor={htmlFor}
      className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200"
    >
      {children}
    </label>
  );
}

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
}

export function TextField({
  label,
  error,
  hint,
  id,
  className = "",
  ref,
  ...input
}: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  return (
    <div className={className}>
      <FieldLabel htmlFor={inputId}>{label}</FieldLabel>
      <input
        id={inputId}
        ref={ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(error && errorId, hint && hintId)}
        className={`${controlBase} ${error ? controlInvalid : controlNormal} ${controlReadOnly}`}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string | undefined;
  ref?: Ref<HTMLSelectElement>;
  children: ReactNode;
}

export function SelectField({
  label,
  error,
  id,
  className = "",
  ref,
  children,
  ...select
}: SelectFieldProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  const errorId = `${selectId}-error`;
  return (
    <div className={className}>
      <FieldLabel htmlFor={selectId}>{label}</FieldLabel>
      <select
        id={selectId}
        ref={ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(error && errorId)}
        className={`${controlBase} ${error ? controlInvalid : controlNormal}`}
        {...select}
      >
        {children}
      </select>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "type"> {
  label: ReactNode;
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
}

export function CheckboxField({
  label,
  error,
  id,
  className = "",
  ref,
  ...input
}: CheckboxFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  return (
    <div className={className}>
      <div className="flex items-start gap-3">
        <input
          id={inputId}
          ref={ref}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(error && errorId)}
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600"
          {...input}
        />
        <label htmlFor={inputId} className="text-sm text-slate-700 dark:text-slate-200">
          {label}
        </label>
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
