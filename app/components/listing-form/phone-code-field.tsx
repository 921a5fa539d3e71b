import { useState } from "react";
import { Button } from "~/components/ui/button";
import { CodeInput } from "~/components/ui/code-input";
import { FormField } from "~/components/ui/form-field";
import { type MessageKey, useTranslation } from "~/i18n";
import { localPhone, mobileE164 } from "~/lib/phone";
import type { PhoneCodeAnswer } from "~/schemas/phone-code-answer";
import { PHONE_CODE_MESSAGES } from "~/schemas/phone-confirmation";
import "virtual:catalogue/listing-form";

/** The resource route behind 'Send code' and 'Confirm' (app/routes/dashboard.phone-code.ts). */
export const PHONE_CODE_URL = "/dashboard/phone-code";

/** What the post and edit loaders tell the form about phone confirmation (ADR 076). */
export type PhoneCheck = {
  /** An SMS provider is set: numbers are confirmed by a code before an ad goes public. */
  enabled: boolean;
  /** The numbers (E.164) this owner has confirmed and that still stand. */
  confirmed: string[];
};

type Props = PhoneCheck & {
  /** The contact phone as typed now. */
  typed: string;
  /** The number (E.164) the listing has (edit): keeping it needs no code. */
  keep?: string | null;
  /** The server asked for the code (the form's answer), and what it said about the code. */
  asked?: { phone: string; sent: boolean };
  error?: string;
  enhanced: boolean;
  /** Set on the second field of a form (WhatsApp's own number, ADR 092), so that ids stay unique. */
  idSuffix?: string;
};

type Message = { key: MessageKey; values?: Record<string, number | string> };

const REFUSED: Record<"signedOut" | "origin", MessageKey> = {
  signedOut: "listingForm.errors.origin",
  origin: "listingForm.errors.origin",
};

async function ask(body: Record<string, string>): Promise<PhoneCodeAnswer | null> {
  try {
    const response = await fetch(PHONE_CODE_URL, { method: "POST", body: new URLSearchParams(body) });
    return (await response.json()) as PhoneCodeAnswer;
  } catch {
    return null;
  }
}

/**
 * The SMS code for the contact phone, under the phone field. Without
 * JavaScript it appears when the server held the post for the code: a code
 * field the next submit carries. With JavaScript, a number not yet confirmed
 * gets 'Send code', then a code field and 'Confirm', then 'Confirmed ✓'; the
 * server still checks everything on submit.
 */
export function PhoneCodeField({ enabled, confirmed, typed, keep, asked, error, enhanced, idSuffix }: Props) {
  const { t } = useTranslation();
  const [confirmedHere, setConfirmedHere] = useState<string[]>([]);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState<"send" | "confirm" | null>(null);
  const [notice, setNotice] = useState<Message | null>(null);
  const [problem, setProblem] = useState<Message | null>(null);
  const [code, setCode] = useState("");
  const phone = mobileE164(typed);

  if (!enabled && !asked) return null;
  if (phone && (confirmed.includes(phone) || confirmedHere.includes(phone)))
    return (
      <p role="status" className="text-sm font-semibold text-green-800" data-testid="phone-confirmed">
        {t("listingForm.phoneConfirm.confirmedShort")}
      </p>
    );
  if (phone !== null && phone === keep && !asked) return null;
  // With JavaScript the field follows the number typed; without, it is the number the server asked about.
  const codeShown = enhanced ? phone !== null && (sentTo === phone || asked !== undefined) : asked !== undefined;
  if (!codeShown && (!enhanced || !phone)) return null;

  const answered = (answer: PhoneCodeAnswer | null, target: string) => {
    setBusy(null);
    if (!answer) return setProblem({ key: "listingForm.phoneConfirm.failed" });
    if (!answer.ok) {
      const key =
        answer.code === "signedOut" || answer.code === "origin"
          ? REFUSED[answer.code]
          : PHONE_CODE_MESSAGES[answer.code];
      return setProblem({ key, values: answer.values });
    }
    setProblem(null);
    if (answer.status === "confirmed") return setConfirmedHere((all) => [...all, target]);
    setSentTo(target);
    setNotice({ key: "listingForm.phoneConfirm.sent", values: { phone: localPhone(target) } });
  };
  const send = async () => {
    if (!phone) return;
    setBusy("send");
    answered(await ask({ intent: "send", phone }), phone);
  };
  const check = async () => {
    if (!phone) return;
    setBusy("confirm");
    answered(await ask({ intent: "confirm", phone, code }), phone);
  };
  const shownError = problem ? t(problem.key, problem.values) : error;

  return (
    <div className="space-y-3 rounded-lg border border-slate-300 bg-slate-50 p-3" data-testid="phone-code">
      {codeShown ? null : <p className="text-sm text-slate-700">{t("listingForm.phoneConfirm.needed")}</p>}
      {notice && sentTo === phone ? (
        <p role="status" className="text-sm text-slate-800">
          {t(notice.key, notice.values)}
        </p>
      ) : null}
      {codeShown ? (
        <FormField
          id={idSuffix ? `listing-phoneCode-${idSuffix}` : "listing-phoneCode"}
          name="phoneCode"
          label={t("listingForm.phoneConfirm.codeLabel")}
          hint={enhanced ? undefined : t("listingForm.phoneConfirm.codeHint")}
          error={shownError}
        >
          {(control) => (
            <CodeInput
              {...control}
              {...(enhanced ? { value: code, onChange: (event) => setCode(event.currentTarget.value) } : {})}
            />
          )}
        </FormField>
      ) : shownError ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {shownError}
        </p>
      ) : null}
      {enhanced ? (
        <div className="flex flex-wrap gap-2">
          {codeShown ? (
            <Button onClick={check} disabled={busy !== null || code.trim() === ""}>
              {busy === "confirm" ? t("listingForm.phoneConfirm.confirming") : t("listingForm.phoneConfirm.confirm")}
            </Button>
          ) : null}
          <Button variant={codeShown ? "secondary" : "primary"} onClick={send} disabled={busy !== null}>
            {busy === "send"
              ? t("listingForm.phoneConfirm.sending")
              : codeShown
                ? t("listingForm.phoneConfirm.sendAgain")
                : t("listingForm.phoneConfirm.sendCode")}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
