import type { ReactNode } from "react";
import { ErrorIcon } from "./icons";

/** Props a FormField hands to its control so label, hint and error are wired up. */
export type FieldControlProps = {
  id: string;
  name: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
  required?: boolean;
};

type FormFieldProps = {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  required?: boolean;
  /** Shown after the label for required fields (e.g. "(required)"). */
  requiredLabel?: string;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
};

export { inputClasses } from "./button";

/**
 * Label above, hint below, error next to the control. The control gets
 * aria-describedby pointing at both, and aria-invalid when there is an error.
 */
export function FormField({
  id,
  name,
  label,
  hint,
  error,
  required,
  requiredLabel,
  className = "",
  children,
}: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block font-medium text-slate-900">
        {label}
        {required && requiredLabel ? (
          <span className="ml-1 text-sm font-normal text-slate-600">{requiredLabel}</span>
        ) : null}
      </label>
      {children({
        id,
        name,
        "aria-describedby": describedBy,
        "aria-invalid": error ? true : undefined,
        required,
      })}
      {error ? (
        <p id={errorId} className="mt-1 flex items-start gap-1 text-sm font-medium text-red-700">
          <ErrorIcon className="mt-0.5 h-4 w-4 shrink-0" />
          <span>{error}</span>
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The FormField props of one form's fields, from the field's name: id `<idPrefix>-<name>`
 * (what the form's error summary links to), its label and error, and with `required` the
 * required mark. A form declares how its labels and errors are found once.
 */
export function fieldsOf<Field extends string>(form: {
  idPrefix: string;
  label: (field: Field) => string;
  error: (field: Field) => string | undefined;
  requiredLabel?: string;
}) {
  return (name: Field, options: { hint?: string; required?: true } = {}) => ({
    id: `${form.idPrefix}-${name}`,
    name,
    label: form.label(name),
    hint: options.hint,
    error: form.error(name),
    ...(options.required ? { required: true, requiredLabel: form.requiredLabel } : {}),
  });
}
