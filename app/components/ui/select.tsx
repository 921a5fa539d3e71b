import type { ComponentProps } from "react";
import { inputClasses } from "./form-field";
import { ChevronDownIcon } from "./icons";

export type SelectOption = { value: string; label: string };

type SelectProps = ComponentProps<"select"> & { options: readonly SelectOption[] };

/** A native select (works without JavaScript, and with every screen reader) with our styling. */
export function Select({ options, className = "", ...props }: SelectProps) {
  return (
    <div className={`relative ${className}`}>
      <select className={`${inputClasses} appearance-none pr-10`} {...props}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute right-3 top-1/2 h-5 w-5 -translate-y-1/2 text-slate-600" />
    </div>
  );
}
