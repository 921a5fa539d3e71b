import { Form } from "react-router";
import { Button, type ButtonVariant } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { TextArea } from "~/components/ui/text-input";
import { type MessageKey, useTranslation } from "~/i18n";
import { type HeldIntent, type ModerationIntent, REASON_MAX_LENGTH, REASON_REQUIRED } from "~/schemas/moderation";
import "virtual:catalogue/admin";

type Props = {
  intent: ModerationIntent | HeldIntent;
  /** The held listing the decision is about (the held-for-review queue has one form per listing). */
  listingId?: number;
  label: string;
  variant?: ButtonVariant;
  /** The error of the last attempt at this action (a catalogue key), and what was typed. */
  error?: MessageKey;
  reason?: string;
};

/** One moderation action: a plain POST form (works without JavaScript) with its reason field. */
export function ModerationForm({ intent, listingId, label, variant = "secondary", error, reason }: Props) {
  const { t } = useTranslation();
  const required = REASON_REQUIRED.includes(intent);
  const id = listingId === undefined ? `reason-${intent}` : `reason-${intent}-${listingId}`;
  return (
    <Form method="post" className="space-y-2" data-intent={intent}>
      <input type="hidden" name="intent" value={intent} />
      {listingId === undefined ? null : <input type="hidden" name="listingId" value={listingId} />}
      <FormField
        id={id}
        name="reason"
        label={required ? t("admin.actions.reasonRequired") : t("admin.actions.reasonOptional")}
        error={error ? t(error, { max: REASON_MAX_LENGTH }) : undefined}
      >
        {(control) => <TextArea control={control} rows={2} maxLength={REASON_MAX_LENGTH} defaultValue={reason} />}
      </FormField>
      <Button type="submit" variant={variant}>
        {label}
      </Button>
    </Form>
  );
}
