import * as z from "zod/mini";
import type { MessageKey } from "~/i18n/keys.generated";

export type FormParseResult<F extends string, T> =
  | { ok: true; data: T; values: Record<F, string> }
  | { ok: false; errors: Partial<Record<F, MessageKey>>; first: MessageKey; values: Record<F, string> };

/** Reads text fields from a form; a missing field or a file counts as empty. */
export function readFields<F extends string>(form: FormData, fields: readonly F[]): Record<F, string> {
  return Object.fromEntries(
    fields.map((field) => {
      const raw = form.get(field);
      return [field, typeof raw === "string" ? raw : ""];
    }),
  ) as Record<F, string>;
}

/**
 * Validates and keeps one message per field; `first` is the message of the
 * earliest failing field in `fields` order (the spec's rule order).
 */
export function parseWith<F extends string, T>(
  schema: z.ZodMiniType<T>,
  fields: readonly F[],
  values: Record<F, string>,
  input: unknown = values,
): FormParseResult<F, T> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data, values };
  const errors: Partial<Record<F, MessageKey>> = {};
  // zod carries a message as a plain string; every schema here gives catalogue keys as its
  // messages (the schema tests render each one), so this is where they become keys.
  for (const issue of result.error.issues) {
    const field = issue.path[0] as F;
    errors[field] ??= issue.message as MessageKey;
  }
  const firstField = fields.find((f) => errors[f]) as F;
  return { ok: false, errors, first: errors[firstField] ?? (result.error.issues[0]!.message as MessageKey), values };
}

/** A text, trimmed, of `min` to `max` characters, with the message for each way it fails. */
export function requiredText(max: number, required: MessageKey, tooLong: MessageKey, min = 1) {
  return z.string().check(z.trim(), z.minLength(min, required), z.maxLength(max, tooLong));
}
