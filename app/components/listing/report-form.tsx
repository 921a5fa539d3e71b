import {
  type ComponentProps,
  type ComponentType,
  type FormEvent,
  type ReactNode,
  type RefAttributes,
  useEffect,
  useRef,
  useState,
} from "react";
import type { FetcherFormProps } from "react-router";
import { HoneypotField } from "~/components/forms/honeypot-field";
import { useWhenChanged } from "~/components/forms/use-when-changed";
import { Banner } from "~/components/ui/banner";
import { Button } from "~/components/ui/button";
import { FormField, inputClasses } from "~/components/ui/form-field";
import { Select } from "~/components/ui/select";
import { TextArea } from "~/components/ui/text-input";
import { type KeysBelow, type MessageKey, useTranslation } from "~/i18n";
import {
  parseReportForm,
  REPORT_FIELDS,
  REPORT_LIMITS,
  REPORT_REASONS,
  type ReportErrors,
  type ReportReason,
  type ReportValues,
} from "~/schemas/report";
import "virtual:catalogue/report";

/** What the report action (app/routes/listing.report.tsx) answers. */
export type ReportActionResult =
  | { status: "sent"; listingPath: string }
  | { status: "invalid"; errors: ReportErrors; values: ReportValues }
  /** Refused as a whole: `message` is a catalogue key ('Failed to submit report…', too many, …). */
  | { status: "refused"; message: MessageKey; values?: ReportValues };

export type ReportFormProps = {
  /** The router's <Form> on the page, a fetcher's in the dialog. */
  FormComponent: ComponentType<FetcherFormProps & RefAttributes<HTMLFormElement>>;
  action?: string;
  listingId: string;
  result: ReportActionResult | undefined;
  submitting: boolean;
  /** Prefix for element ids, so the page and the dialog never clash. */
  idPrefix: string;
  /** True where JavaScript runs from the first render (the dialog). */
  interactive?: boolean;
  /** Extra buttons beside the submit button (the dialog's Cancel). */
  actions?: ReactNode;
};

type TextField = "reporterName" | "reporterEmail" | "reporterContact";

const EMPTY: ReportValues = {
  listingId: "",
  reporterName: "",
  reporterEmail: "",
  reporterContact: "",
  reason: "",
  description: "",
};

/**
 * The report form: every error listed together
 * under 'Please fix the following errors:' and beside its field; editing
 * any field clears them. Works as a plain POST without JavaScript.
 */
export function ReportForm({
  FormComponent,
  action,
  listingId,
  result,
  submitting,
  idPrefix,
  interactive = false,
  actions,
}: ReportFormProps) {
  const { t } = useTranslation();
  const values = (result && result.status !== "sent" ? result.values : undefined) ?? EMPTY;
  const [clientErrors, setClientErrors] = useState<ReportErrors | null>(null);
  const [cleared, setCleared] = useState(false);
  const [reason, setReason] = useState(values.reason);
  // Without JavaScript every reason's sentence is listed; with it, the chosen one.
  const [enhanced, setEnhanced] = useState(interactive);
  const summaryRef = useRef<HTMLDivElement>(null);

  useEffect(() => setEnhanced(true), []);
  // A new answer from the server replaces what the browser found.
  useWhenChanged(() => {
    setClientErrors(null);
    setCleared(false);
  }, [result]);

  const serverErrors = result?.status === "invalid" ? result.errors : null;
  const errors: ReportErrors = cleared ? {} : (clientErrors ?? serverErrors ?? {});
  const errorFields = REPORT_FIELDS.filter((field) => errors[field]);
  const refusal = result?.status === "refused" && !cleared ? result.message : null;

  // Move focus to the list so keyboard and screen-reader users hear it.
  useWhenChanged(() => {
    if (errorFields.length > 0) summaryRef.current?.focus();
  }, [clientErrors, result, errorFields.length]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (submitting) {
      event.preventDefault();
      return;
    }
    const checked = parseReportForm(new FormData(event.currentTarget));
    setCleared(false);
    if (checked.ok) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    setClientErrors(checked.errors);
  };

  const onEdit = () => {
    if (errorFields.length > 0 || refusal) setCleared(true);
  };

  const id = (field: string) => `${idPrefix}-${field}`;
  const errorText = (field: keyof ReportErrors) => (errors[field] ? t(errors[field]) : undefined);
  const required = { required: true, requiredLabel: t("common.form.required") };
  const textField = (
    field: TextField,
    label: KeysBelow<"report.form">,
    attributes: ComponentProps<"input">,
    hint?: string,
  ) => (
    <FormField
      id={id(field)}
      name={field}
      label={t(`report.form.${label}`)}
      hint={hint}
      error={errorText(field)}
      {...required}
    >
      {(control) => (
        <input
          type="text"
          {...attributes}
          {...control}
          maxLength={REPORT_LIMITS[field]}
          defaultValue={values[field]}
          className={inputClasses}
        />
      )}
    </FormField>
  );

  return (
    <FormComponent method="post" action={action} noValidate onSubmit={onSubmit} onChange={onEdit} className="space-y-4">
      <input type="hidden" name="listingId" value={listingId} />
      {refusal ? <Banner variant="error" title={t(refusal)} /> : null}
      {errorFields.length > 0 ? (
        <div ref={summaryRef} tabIndex={-1} className="scroll-mt-24">
          <Banner variant="error" title={t("report.form.fixErrors")}>
            <ul className="list-disc pl-5">
              {errorFields.map((field) => (
                <li key={field}>{errorText(field)}</li>
              ))}
            </ul>
          </Banner>
        </div>
      ) : null}

      {textField("reporterName", "name", { autoComplete: "name" })}
      {textField(
        "reporterEmail",
        "email",
        { type: "email", autoComplete: "email", inputMode: "email" },
        t("report.form.emailHint"),
      )}
      {textField("reporterContact", "contact", { autoComplete: "tel" })}

      <FormField
        id={id("reason")}
        name="reason"
        label={t("report.form.reason")}
        // The select offers REPORT_REASONS only (the server refuses any other value).
        hint={enhanced && reason ? t(`report.reasons.${reason as ReportReason}.description`) : undefined}
        error={errorText("reason")}
        {...required}
      >
        {(control) => (
          <Select
            {...control}
            defaultValue={values.reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            options={[
              { value: "", label: t("report.form.chooseReason") },
              ...REPORT_REASONS.map((r) => ({ value: r, label: t(`report.reasons.${r}.label`) })),
            ]}
          />
        )}
      </FormField>
      {enhanced ? null : (
        <dl className="space-y-1 text-sm text-slate-700">
          {REPORT_REASONS.map((r) => (
            <div key={r}>
              <dt className="inline font-semibold">{t(`report.reasons.${r}.label`)}: </dt>
              <dd className="inline">{t(`report.reasons.${r}.description`)}</dd>
            </div>
          ))}
        </dl>
      )}

      <FormField
        id={id("description")}
        name="description"
        label={
          <>
            {t("report.form.description")}{" "}
            <span className="text-sm font-normal text-slate-600">{t("report.form.optional")}</span>
          </>
        }
        hint={t("report.form.descriptionHint")}
        error={errorText("description")}
      >
        {(control) => (
          <TextArea
            control={control}
            rows={3}
            maxLength={REPORT_LIMITS.description}
            defaultValue={values.description}
          />
        )}
      </FormField>

      <HoneypotField id={id("website")} label={t("report.form.honeypot")} />

      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={submitting}>
          {submitting ? t("report.form.submitting") : t("report.form.submit")}
        </Button>
        {actions}
      </div>
    </FormComponent>
  );
}

/** The success message, on the page and in the dialog. */
export function ReportSuccess({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Banner variant="success" title={t("report.success.title")}>
      <p>{t("report.success.text")}</p>
      {children}
    </Banner>
  );
}
