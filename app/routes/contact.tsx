import { useRef } from "react";
import { data, Form, useNavigation } from "react-router";
import { ErrorLinks } from "~/components/forms/error-links";
import { HoneypotField } from "~/components/forms/honeypot-field";
import { useFormFailure } from "~/components/forms/use-form-failure";
import { useWhenChanged } from "~/components/forms/use-when-changed";
import { Banner } from "~/components/ui/banner";
import { Button, ButtonLink } from "~/components/ui/button";
import { FormField, fieldsOf } from "~/components/ui/form-field";
import { ClockIcon, FlagIcon, MailIcon, PhoneIcon } from "~/components/ui/icons";
import { Select } from "~/components/ui/select";
import { EmailInput, NameInput, TextArea } from "~/components/ui/text-input";
import { useTranslation } from "~/i18n";
import { translatorFor } from "~/i18n/translator.server";
import { cataloguePageMeta } from "~/lib/route-meta";
import { retryAfterHeaders } from "~/limits/rate-limit.server";
import { refusalHeaders } from "~/limits/refusal.server";
import { emailContactMessageToSupport } from "~/mail/contact-mail.server";
import { saveContactMessage } from "~/models/contact.server";
import {
  CONTACT_FIELDS,
  CONTACT_LIMITS,
  CONTACT_SUBJECTS,
  type ContactErrors,
  type ContactValues,
  parseContactForm,
} from "~/schemas/contact";
import { isHoneypotFilled } from "~/schemas/honeypot";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/contact";
import "virtual:catalogue/info";
import { Section } from "~/components/ui/section";
import { readForm } from "~/security/read-form.server";

export const meta: Route.MetaFunction = cataloguePageMeta({
  title: "info.contact.meta.title",
  description: "info.contact.meta.description",
  path: "/contact",
});

export const headers: Route.HeadersFunction = refusalHeaders;

export function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  // The listing page links here as ?subject=Report%20an%20Issue&listing=1234.
  const subjectParam = params.get("subject")?.trim().toLowerCase();
  const subject = CONTACT_SUBJECTS.find((s) => s.toLowerCase() === subjectParam) ?? "";
  const listing = params.get("listing")?.trim() ?? "";
  return {
    supportEmail: env.SUPPORT_EMAIL,
    prefill: { subject, listingId: /^\d{1,12}$/.test(listing) ? listing : null },
  };
}

type ActionResult =
  | { status: "sent" }
  | { status: "invalid"; errors: ContactErrors; values: ContactValues }
  | { status: "failed"; values: ContactValues }
  | { status: "limited"; values: ContactValues; unavailable?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const { db, env, log, limiter, clientIp } = context.get(requestContext);
  // Posts from other sites' pages are refused before this (app/security/origin.server.ts).
  const form = await readForm(request);
  if (isHoneypotFilled(form)) {
    // Looks like a bot: answer as if it worked so it learns nothing.
    log.info("contact form honeypot filled; message dropped");
    return { status: "sent" } satisfies ActionResult;
  }
  const parsed = parseContactForm(form);
  if (!parsed.ok) {
    return data({ status: "invalid", errors: parsed.errors, values: parsed.values } satisfies ActionResult, {
      status: 400,
    });
  }
  const allowed = await limiter.consume("contactIp", { ip: clientIp });
  if (!allowed.ok) {
    return data({ status: "limited", values: parsed.values, unavailable: allowed.unavailable } satisfies ActionResult, {
      status: allowed.unavailable ? 503 : 429,
      headers: retryAfterHeaders(allowed),
    });
  }
  try {
    const stored = await saveContactMessage(db, parsed.data);
    log.info({ contactMessageId: stored.id }, "contact message stored");
    // Stored is what counts: support can still read it if queueing the email fails.
    try {
      await emailContactMessageToSupport(
        db,
        { supportEmail: env.SUPPORT_EMAIL, siteName: env.SITE_NAME, siteUrl: env.siteUrl },
        parsed.data,
        stored,
        // Support's copy, in support's language (not the sender's).
        translatorFor("en"),
      );
    } catch (error) {
      log.error({ err: error, contactMessageId: stored.id }, "could not queue the contact message email");
    }
    return { status: "sent" } satisfies ActionResult;
  } catch (error) {
    log.error({ err: error }, "could not store contact message");
    return data({ status: "failed", values: parsed.values } satisfies ActionResult, { status: 503 });
  }
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { supportEmail, prefill } = loaderData;
  const result = actionData as ActionResult | undefined;
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const {
    failure,
    focusRef: summaryRef,
    browserFound,
  } = useFormFailure<{ errors: ContactErrors }>(actionData, result?.status === "invalid" ? result : null);
  const successRef = useRef<HTMLDivElement>(null);

  const errors: ContactErrors = failure?.errors ?? {};
  const errorFields = CONTACT_FIELDS.filter((f) => errors[f]);

  // Move focus to the outcome so keyboard and screen-reader users hear it.
  useWhenChanged(() => successRef.current?.focus(), [actionData]);

  const values: ContactValues =
    result && result.status !== "sent"
      ? result.values
      : {
          name: "",
          email: "",
          subject: prefill.subject,
          message: prefill.listingId ? t("info.contact.aboutListing", { id: prefill.listingId }) : "",
        };

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const checked = parseContactForm(new FormData(event.currentTarget));
    if (checked.ok) {
      browserFound(null);
      return;
    }
    event.preventDefault();
    browserFound({ errors: checked.errors });
  };

  const errorText = (field: keyof ContactErrors) => (errors[field] ? t(errors[field]) : undefined);
  const field = fieldsOf<keyof ContactErrors>({
    idPrefix: "contact",
    label: (name) => t(`info.contact.form.${name}`),
    error: errorText,
    requiredLabel: t("common.form.required"),
  });

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t("info.contact.heading")}</h1>
      <p className="mt-3 text-lg text-slate-700">{t("info.contact.intro")}</p>

      <ul className="mt-8 grid gap-4 md:grid-cols-3">
        <li className="rounded-xl border border-slate-200 p-5">
          <MailIcon className="h-7 w-7 text-brand-700" />
          <h2 className="mt-2 text-lg font-semibold">{t("info.contact.cards.email.title")}</h2>
          <p className="mt-1 text-slate-700">{t("info.contact.cards.email.text")}</p>
          <a
            href={`mailto:${supportEmail}`}
            className="mt-2 inline-flex min-h-11 items-center break-all font-medium text-brand-700 underline"
          >
            {supportEmail}
          </a>
        </li>
        <li className="rounded-xl border border-slate-200 p-5">
          <PhoneIcon className="h-7 w-7 text-brand-700" />
          <h2 className="mt-2 text-lg font-semibold">{t("info.contact.cards.phone.title")}</h2>
          <a
            href={`tel:${t("info.contact.cards.phone.tel")}`}
            className="mt-1 inline-flex min-h-11 items-center font-medium text-brand-700 underline"
          >
            {t("info.contact.cards.phone.number")}
          </a>
          <br />
          <a
            href={t("info.contact.cards.phone.whatsapp")}
            className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
          >
            {t("info.contact.cards.phone.whatsappLink")}
          </a>
          <p className="mt-1 flex items-start gap-2 text-slate-700">
            <ClockIcon className="mt-0.5 h-5 w-5 shrink-0 text-slate-600" />
            {t("info.contact.cards.phone.hours")}
          </p>
        </li>
        <li className="rounded-xl border border-slate-200 p-5">
          <FlagIcon className="h-7 w-7 text-brand-700" />
          <h2 className="mt-2 text-lg font-semibold">{t("info.contact.cards.report.title")}</h2>
          <p className="mt-1 text-slate-700">{t("info.contact.cards.report.text")}</p>
        </li>
      </ul>

      <Section
        id="contact-form-heading"
        look="page"
        className="mt-10 max-w-2xl"
        heading={t("info.contact.form.heading")}
      >
        {result?.status === "sent" ? (
          <div ref={successRef} tabIndex={-1} className="mt-4 scroll-mt-24">
            <Banner variant="success" title={t("info.contact.successTitle")}>
              {t("info.contact.successText")}
            </Banner>
            <ButtonLink to="/contact" variant="secondary" className="mt-4">
              {t("info.contact.sendAnother")}
            </ButtonLink>
          </div>
        ) : (
          <Form method="post" noValidate onSubmit={onSubmit} className="mt-4 space-y-5">
            {result?.status === "failed" ? (
              <Banner variant="error" title={t("info.contact.failed", { email: supportEmail })} />
            ) : null}
            {result?.status === "limited" ? (
              <div ref={summaryRef} tabIndex={-1} className="scroll-mt-24">
                <Banner
                  variant="error"
                  title={
                    result.unavailable ? t("common.unavailable") : t("info.contact.tooMany", { email: supportEmail })
                  }
                />
              </div>
            ) : null}
            {errorFields.length > 0 ? (
              <div ref={summaryRef} tabIndex={-1} className="scroll-mt-24">
                <Banner variant="error" title={t("common.form.fixErrors")}>
                  <ErrorLinks fields={errorFields} idPrefix="contact" text={errorText} className="list-disc pl-5" />
                </Banner>
              </div>
            ) : null}

            <FormField {...field("name", { required: true })}>
              {(control) => <NameInput control={control} maxLength={CONTACT_LIMITS.name} defaultValue={values.name} />}
            </FormField>

            <FormField {...field("email", { hint: t("info.contact.form.emailHint"), required: true })}>
              {(control) => (
                <EmailInput control={control} maxLength={CONTACT_LIMITS.email} defaultValue={values.email} />
              )}
            </FormField>

            <FormField {...field("subject", { required: true })}>
              {(control) => (
                <Select
                  {...control}
                  defaultValue={values.subject}
                  options={[
                    { value: "", label: t("info.contact.form.chooseSubject") },
                    ...CONTACT_SUBJECTS.map((s) => ({ value: s, label: t(`info.contact.subjects.${s}`) })),
                  ]}
                />
              )}
            </FormField>

            <FormField {...field("message", { hint: t("info.contact.form.messageHint"), required: true })}>
              {(control) => (
                <TextArea
                  control={control}
                  rows={6}
                  maxLength={CONTACT_LIMITS.message}
                  defaultValue={values.message}
                  tall
                />
              )}
            </FormField>

            <HoneypotField id="contact-website" label={t("info.contact.form.honeypot")} />

            <Button type="submit" size="lg" disabled={sending} className="w-full sm:w-auto">
              {sending ? t("info.contact.form.sending") : t("info.contact.form.submit")}
            </Button>
          </Form>
        )}
      </Section>
    </div>
  );
}
