import { inputClasses } from "./button";
import type { FieldControlProps } from "./form-field";

/**
 * An email address field inside a FormField: the email keyboard on phones,
 * the browser's saved address offered, and the longest address allowed.
 */
export function EmailInput({
  control,
  defaultValue,
  maxLength,
}: {
  control: FieldControlProps;
  defaultValue: string;
  maxLength: number;
}) {
  return (
    <input
      {...control}
      type="email"
      autoComplete="email"
      inputMode="email"
      maxLength={maxLength}
      defaultValue={defaultValue}
      className={inputClasses}
    />
  );
}
