import { useState } from "react";
import { FormField, inputClasses } from "~/components/ui/form-field";
import { useTranslation } from "~/i18n";
import { mobileE164 } from "~/lib/phone";
import { LISTING_LIMITS } from "~/schemas/listing-form";
import { type PhoneCheck, PhoneCodeField } from "./phone-code-field";
import "virtual:catalogue/listing-form";

type Props = {
  /** The form's values as posted or stored. */
  values: { whatsapp?: string; viber?: string; whatsappPhone?: string };
  /** The WhatsApp number's label, hint and error (the form's `field()`). */
  whatsappField: { id: string; name: string; label: string; hint?: string; error?: string };
  /** Phone confirmation by SMS (ADR 076). */
  phones: PhoneCheck;
  /** The contact number as typed now: the same number typed again needs no code of its own. */
  contactTyped: string;
  /** The WhatsApp number (E.164) the listing being edited has: keeping it asks for no code. */
  keepWhatsapp: string | null;
  /** The server asked for a code for this number (the form's answer), and the code field's error. */
  asked?: { phone: string; sent: boolean };
  codeError?: string;
  enhanced: boolean;
};

/**
 * The chat apps the number is on (ADR 087), and WhatsApp on a mobile of its own
 * (ADR 092), confirmed by SMS like the contact number: without JavaScript the
 * server holds the post for its code; with it, the code field follows the number typed.
 */
export function ChatAppFields(props: Props) {
  const { values, whatsappField, phones, contactTyped, keepWhatsapp, asked, codeError, enhanced } = props;
  const { t } = useTranslation();
  const [whatsappTyped, setWhatsappTyped] = useState(values.whatsappPhone ?? "");
  const own = mobileE164(whatsappTyped);
  // The contact number typed again is WhatsApp on the contact number: no code of its own.
  const ownNumber = own !== null && own !== mobileE164(contactTyped) ? whatsappTyped : "";

  return (
    <div className="space-y-3">
      <div>
        {(["whatsapp", "viber"] as const).map((app) => (
          <label key={app} className="flex min-h-11 items-center gap-2">
            <input
              type="checkbox"
              name={app}
              value="1"
              defaultChecked={values[app] === "1"}
              className="h-5 w-5 accent-brand-700"
            />
            {t(`listingForm.${app}`)}
          </label>
        ))}
        <p className="text-sm text-slate-600">{t("listingForm.chatAppsHint")}</p>
      </div>
      <FormField {...whatsappField}>
        {(control) => (
          <input
            {...control}
            type="tel"
            autoComplete="off"
            maxLength={LISTING_LIMITS.phone}
            defaultValue={values.whatsappPhone}
            onChange={(event) => setWhatsappTyped(event.currentTarget.value)}
            className={inputClasses}
          />
        )}
      </FormField>
      <PhoneCodeField
        {...phones}
        idSuffix="whatsapp"
        typed={ownNumber}
        keep={keepWhatsapp}
        asked={asked}
        error={codeError}
        enhanced={enhanced}
      />
    </div>
  );
}
