import { useState } from "react";
import { FormField } from "~/components/ui/form-field";
import { PASSWORD_MAX_LENGTH } from "~/schemas/signup";
import { PasswordChecklist } from "./password-checklist";
import { PasswordInput } from "./password-input";

type NewPasswordFieldsProps = {
  /** The new password's field, its list of rules (which the field is described by) and the confirmation's field. */
  ids: { password: string; rules: string; confirm: string };
  labels: { password: string; confirm: string };
  errors: { password?: string; confirm?: string };
  /** Given where both fields are marked required (sign-up). */
  requiredLabel?: string;
};

/**
 * A new password and its confirmation, with the rules ticked off as it is typed
 * (the sign-up rules of the product specification): the same on sign-up, password reset and settings.
 */
export function NewPasswordFields({ ids, labels, errors, requiredLabel }: NewPasswordFieldsProps) {
  const [password, setPassword] = useState("");
  const required = requiredLabel ? { required: true, requiredLabel } : {};
  return (
    <>
      <FormField id={ids.password} name="password" label={labels.password} error={errors.password} {...required}>
        {(control) => (
          <PasswordInput
            {...control}
            aria-describedby={[control["aria-describedby"], ids.rules].filter(Boolean).join(" ")}
            autoComplete="new-password"
            maxLength={PASSWORD_MAX_LENGTH}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
        )}
      </FormField>
      <PasswordChecklist id={ids.rules} password={password} />
      <FormField id={ids.confirm} name="confirmPassword" label={labels.confirm} error={errors.confirm} {...required}>
        {(control) => <PasswordInput {...control} autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} />}
      </FormField>
    </>
  );
}
