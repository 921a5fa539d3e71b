import type { InputHTMLAttributes } from "react";
import { inputClasses } from "./form-field";

/**
 * A one-time code's field (ADR 076): six digits with the phone's numeric
 * keypad, and the code from the SMS offered by the phone's keyboard.
 */
export function CodeInput(props: InputHTMLAttributes<HTMLInputElement>) {
  return (
    <input
      {...props}
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      className={`${inputClasses} max-w-40 tracking-widest`}
    />
  );
}
