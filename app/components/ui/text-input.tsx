import type { HTMLAttributes } from "react";
import { inputClasses } from "./button";
import type { FieldControlProps } from "./form-field";

type TextInputProps = {
  control: FieldControlProps;
  defaultValue: string;
  maxLength: number;
  autoComplete: string;
};

/**
 * A one-line field inside a FormField. The type, the phone keyboard (inputMode) and
 * the browser's saved value (autoComplete) are what the accounts and contact forms
 * pick per field; the longest value allowed comes from the field's schema.
 */
function TextInput({
  control,
  type,
  autoComplete,
  inputMode,
  maxLength,
  defaultValue,
}: TextInputProps & { type: "text" | "email" | "tel"; inputMode?: HTMLAttributes<HTMLInputElement>["inputMode"] }) {
  return (
    <input
      {...control}
      type={type}
      autoComplete={autoComplete}
      inputMode={inputMode}
      maxLength={maxLength}
      defaultValue={defaultValue}
      className={inputClasses}
    />
  );
}

/** An email address: the email keyboard on phones, the browser's saved address offered. */
export function EmailInput(props: Omit<TextInputProps, "autoComplete">) {
  return <TextInput {...props} type="email" autoComplete="email" inputMode="email" />;
}

/** A phone number as typed in Sri Lanka (10 digits): the number pad, the saved national number. */
export function PhoneInput(props: Omit<TextInputProps, "autoComplete">) {
  return <TextInput {...props} type="tel" autoComplete="tel-national" inputMode="numeric" />;
}

/** A person's name, with the browser's saved name offered. */
export function NameInput(props: Omit<TextInputProps, "autoComplete">) {
  return <TextInput {...props} type="text" autoComplete="name" />;
}

/** Free text over several lines inside a FormField: `rows` tall, as long as the field's schema allows. */
export function TextArea({
  control,
  tall = false,
  ...props
}: Omit<TextInputProps, "autoComplete" | "defaultValue"> & {
  rows: number;
  defaultValue?: string;
  /** At least 10 rem high, however few the rows. */
  tall?: boolean;
}) {
  return <textarea {...control} {...props} className={tall ? `${inputClasses} min-h-40` : inputClasses} />;
}
