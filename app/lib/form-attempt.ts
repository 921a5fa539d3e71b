/** The try a form's submission is: one more than the hidden `attempt` field says, capped (useFormFailure). */
export function nextAttempt(form: FormData): number {
  return Math.min(Number(form.get("attempt")) || 0, 99) + 1;
}
