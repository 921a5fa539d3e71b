// zod/mini: the same rule in a small browser bundle.
import * as z from "zod/mini";
import "virtual:catalogue/alerts";

/** RFC 5321's longest address. */
export const ALERT_EMAIL_MAX = 254;

/** The address a search alert is sent to (ADR 058); messages are catalogue keys. */
export const alertEmailSchema = z.pipe(
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "alerts.new.errors.emailRequired"),
      z.maxLength(ALERT_EMAIL_MAX, "alerts.new.errors.emailTooLong"),
    ),
  z.email("alerts.new.errors.emailInvalid"),
);
