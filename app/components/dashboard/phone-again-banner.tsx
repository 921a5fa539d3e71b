import { useLocation } from "react-router";
import { Banner } from "~/components/ui/banner";
import { Button } from "~/components/ui/button";
import { CodeInput } from "~/components/ui/code-input";
import { FormField } from "~/components/ui/form-field";
import { type MessageKey, useTranslation } from "~/i18n";
import { PHONE_CODE_MESSAGES } from "~/schemas/phone-confirmation";
import "virtual:catalogue/dashboard";
import "virtual:catalogue/listing-form";

/** Where the banner's forms go (app/routes/dashboard.phone-code.ts), and come back from. */
const PHONE_CODE_URL = "/dashboard/phone-code";
const BACK = "/dashboard";

/** The route's answer, carried in My Ads' address: the number, and sent, confirmed or why not. */
function answerOf(search: string) {
  const params = new URLSearchParams(search);
  const notice = params.get("phoneCode");
  const phone = params.get("phone");
  if (!notice || !phone) return null;
  const values = Object.fromEntries(
    ["minutes", "hours", "triesLeft"].flatMap((name) => {
      const value = Number(params.get(name));
      return params.has(name) && Number.isInteger(value) ? [[name, value]] : [];
    }),
  );
  const problem = PHONE_CODE_MESSAGES[notice as keyof typeof PHONE_CODE_MESSAGES] as MessageKey | undefined;
  return { notice, phone, values, problem };
}

/**
 * My Ads asks to confirm a number again once its 180 days have passed while an
 * ad still carries it (ADR 076): one tap sends a new code, then a code field.
 * Plain forms, so it works without JavaScript; `lapsed` are local forms (077…).
 */
export function PhoneAgainBanner({ lapsed }: { lapsed: string[] }) {
  const { t } = useTranslation();
  const answer = answerOf(useLocation().search);
  if (lapsed.length === 0 && answer?.notice !== "confirmed") return null;
  return (
    <div className="mt-4 space-y-3" data-testid="phone-again">
      {answer?.notice === "confirmed" ? (
        <Banner variant="success" title={t("dashboard.phoneAgain.confirmed", { phone: answer.phone })} />
      ) : null}
      {lapsed.map((phone) => {
        const here = answer?.phone === phone ? answer : null;
        const asked = here !== null && (here.notice === "sent" || here.values.triesLeft !== undefined);
        return (
          <Banner key={phone} variant="warning" title={t("dashboard.phoneAgain.title", { phone })}>
            <p>{t("dashboard.phoneAgain.text")}</p>
            {here?.notice === "sent" ? (
              <p role="status" className="mt-2 font-medium">
                {t("listingForm.phoneConfirm.sent", { phone })}
              </p>
            ) : null}
            {here?.problem && !asked ? (
              <p role="alert" className="mt-2 font-medium text-red-800">
                {t(here.problem, here.values)}
              </p>
            ) : null}
            {asked ? (
              <form method="post" action={PHONE_CODE_URL} className="mt-3 flex flex-wrap items-end gap-2">
                <input type="hidden" name="intent" value="confirm" />
                <input type="hidden" name="phone" value={phone} />
                <input type="hidden" name="back" value={BACK} />
                <FormField
                  id={`phone-again-${phone}`}
                  name="code"
                  label={t("dashboard.phoneAgain.codeLabel")}
                  error={here?.problem ? t(here.problem, here.values) : undefined}
                >
                  {(control) => <CodeInput {...control} />}
                </FormField>
                <Button type="submit">{t("dashboard.phoneAgain.confirm")}</Button>
              </form>
            ) : null}
            <form method="post" action={PHONE_CODE_URL} className="mt-3">
              <input type="hidden" name="intent" value="send" />
              <input type="hidden" name="phone" value={phone} />
              <input type="hidden" name="back" value={BACK} />
              <Button type="submit" variant={asked ? "secondary" : "primary"}>
                {t("dashboard.phoneAgain.send")}
              </Button>
            </form>
          </Banner>
        );
      })}
    </div>
  );
}
