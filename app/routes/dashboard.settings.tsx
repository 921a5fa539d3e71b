import { useEffect, useState } from "react";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/dashboard.settings";
import { Banner } from "~/components/ui/banner";
import { Button } from "~/components/ui/button";
import { FormField, inputClasses } from "~/components/ui/form-field";
import { isSameOrigin, requireUser } from "~/auth/auth.server";
import { useTranslation } from "~/i18n";
import { updateProfile } from "~/models/account.server";
import { parseProfileForm, type ProfileField } from "~/schemas/profile";
import { NAME_MAX_LENGTH, PHONE_LENGTH } from "~/schemas/signup";
import { requestContext } from "~/services.server";
import "virtual:catalogue/accounts";
import { readForm } from "~/lib/read-form.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return { profile: { name: user.name, phone: user.phone, email: user.email } };
}

type ActionResult = { status: "saved"; savedAt: number } | { status: "error"; savedAt: number; errors: Partial<Record<ProfileField, string>> };

export async function action({ request, context }: Route.ActionArgs) {
  const { db, env, log } = context.get(requestContext);
  const user = await requireUser(request, context);
  const savedAt = Date.now();
  if (!isSameOrigin(request, env.siteUrl)) {
    return data({ status: "error", savedAt, errors: {} } satisfies ActionResult, { status: 403 });
  }
  // Whatever email is posted is ignored: only name and phone are read.
  const parsed = parseProfileForm(await readForm(request));
  if (!parsed.ok) return data({ status: "error", savedAt, errors: parsed.errors } satisfies ActionResult, { status: 400 });
  try {
    await updateProfile(db, user.id, parsed.data);
    return { status: "saved", savedAt } satisfies ActionResult;
  } catch (error) {
    log.error({ err: error }, "profile update failed");
    return data({ status: "error", savedAt, errors: {} } satisfies ActionResult, { status: 503 });
  }
}

/** SPEC.md section 4 "Profile save": the banner shows for 3 seconds. */
const BANNER_MS = 3000;

export default function DashboardSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ActionResult | undefined;
  const { profile } = loaderData;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const [name, setName] = useState(profile.name);
  const [hiddenAt, setHiddenAt] = useState<number | null>(null);

  useEffect(() => {
    if (!result) return;
    const timer = setTimeout(() => setHiddenAt(result.savedAt), BANNER_MS);
    return () => clearTimeout(timer);
  }, [result]);
  // Without JavaScript there is no timer: the banner stays until the next page.
  const banner = result && hiddenAt !== result.savedAt ? result : null;
  const errors = result?.status === "error" ? result.errors : {};

  return (
    <section aria-labelledby="settings-heading" className="max-w-xl rounded-xl border border-slate-200 p-5">
      <h2 id="settings-heading" className="text-xl font-semibold">
        {t("accounts.settings.heading")}
      </h2>
      <div className="mt-4 empty:hidden">
        {banner?.status === "saved" ? (
          <Banner variant="success" title={t("accounts.settings.savedTitle")}>
            {t("accounts.settings.savedText")}
          </Banner>
        ) : null}
        {banner?.status === "error" ? (
          <Banner variant="error" title={t("accounts.settings.errorTitle")}>
            {t("accounts.settings.errorText")}
          </Banner>
        ) : null}
      </div>
      <Form method="post" noValidate className="mt-4 space-y-5">
        <FormField
          id="settings-name"
          name="name"
          label={t("accounts.settings.name")}
          error={errors.name ? t(errors.name) : undefined}
          required
          requiredLabel={t("common.form.required")}
        >
          {(control) => (
            <input
              {...control}
              type="text"
              autoComplete="name"
              maxLength={NAME_MAX_LENGTH}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              className={inputClasses}
            />
          )}
        </FormField>
        <FormField id="settings-phone" name="phone" label={t("accounts.settings.phone")} error={errors.phone ? t(errors.phone) : undefined}>
          {(control) => (
            <input
              {...control}
              type="tel"
              autoComplete="tel-national"
              inputMode="numeric"
              maxLength={PHONE_LENGTH}
              defaultValue={profile.phone}
              className={inputClasses}
            />
          )}
        </FormField>
        <FormField id="settings-email" name="email" label={t("accounts.settings.email")} hint={t("accounts.settings.emailNote")}>
          {(control) => <input {...control} type="email" readOnly value={profile.email} className={`${inputClasses} bg-slate-100`} />}
        </FormField>
        <Button type="submit" disabled={saving || name.trim() === ""}>
          {saving ? t("accounts.settings.saving") : t("accounts.settings.save")}
        </Button>
      </Form>
    </section>
  );
}
