import { HONEYPOT_FIELD } from "~/schemas/honeypot";

/**
 * The honeypot field (app/schemas/honeypot.ts): off-screen rather than
 * display:none (which some bots skip), out of the Tab order, hidden from
 * screen readers, never autofilled. Its label tells anyone who still meets it.
 */
export function HoneypotField({ id, label }: { id: string; label: string }) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
