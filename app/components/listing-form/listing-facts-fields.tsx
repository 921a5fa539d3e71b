import type { ReactNode } from "react";
import { type FieldControlProps, FormField, fieldsOf, inputClasses } from "~/components/ui/form-field";
import { useTranslation } from "~/i18n";
import { formatClock } from "~/lib/format";
import { BATHROOMS, BED_TYPES, BILLS, CURFEWS, type FactField, MEALS, RULES } from "~/schemas/listing-facts";
import "virtual:catalogue/listing-form";

type Props = {
  /** The form's values as posted or stored ('' is 'not stated'). */
  values: Partial<Record<FactField, string>>;
  /** The message for a field's error, or undefined. */
  message: (field: FactField) => string | undefined;
  /** With JavaScript, the chosen property type: beds are asked of shared rooms and hostels only. */
  propertyType: string | null;
};

const selectClasses = `${inputClasses} appearance-auto`;

/**
 * The facts students ask first (ADR 051): each a choice that starts at 'Not
 * stated', so nothing is claimed for an owner who skips them. Without
 * JavaScript the beds always show, with a hint; the server ignores them for
 * single rooms and apartments.
 */
export function ListingFactsFields({ values, message, propertyType }: Props) {
  const { t, locale } = useTranslation();
  const notStated = t("listingForm.facts.notStated");
  const select =
    (field: FactField, options: readonly { value: string; label: string }[]) =>
    (control: FieldControlProps): ReactNode => (
      <select {...control} defaultValue={values[field] ?? ""} className={selectClasses}>
        <option value="">{notStated}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  const props = fieldsOf<FactField>({
    idPrefix: "listing",
    label: (name) => t(`listingForm.facts.${name}`),
    error: message,
  });
  const field = (name: FactField, options: readonly { value: string; label: string }[], hint?: string) => (
    <FormField {...props(name, { hint })}>{select(name, options)}</FormField>
  );
  const rules = RULES.map((value) => ({ value, label: t(`listingForm.facts.rulesOptions.${value}`) }));
  const beds = propertyType === null || BED_TYPES.includes(propertyType);
  const bedsField = (name: "bedsFree" | "bedsTotal") => (
    <FormField {...props(name, { hint: t("listingForm.facts.bedsHint") })}>
      {(control) => (
        <input
          {...control}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={3}
          defaultValue={values[name] ?? ""}
          className={inputClasses}
        />
      )}
    </FormField>
  );

  return (
    <fieldset className="space-y-5 rounded-xl border border-slate-200 p-4">
      <legend className="px-1 font-semibold text-slate-900">{t("listingForm.facts.heading")}</legend>
      <p className="-mt-2 text-sm text-slate-600">{t("listingForm.facts.hint")}</p>
      <div className="grid gap-5 sm:grid-cols-2">
        {field(
          "bills",
          BILLS.map((value) => ({ value, label: t(`listingForm.facts.billsOptions.${value}`) })),
        )}
        {field(
          "meals",
          MEALS.map((value) => ({ value, label: t(`listingForm.facts.mealsOptions.${value}`) })),
        )}
        {field(
          "bathroom",
          BATHROOMS.map((value) => ({ value, label: t(`listingForm.facts.bathroomOptions.${value}`) })),
        )}
        {field(
          "curfew",
          CURFEWS.map((value) => ({
            value,
            label:
              value === "none"
                ? t("listingForm.facts.curfewNone")
                : t("listingForm.facts.curfewAt", { time: formatClock(value, locale) }),
          })),
        )}
        {field("visitors", rules)}
        {field("cooking", rules)}
        {beds ? bedsField("bedsFree") : null}
        {beds ? bedsField("bedsTotal") : null}
      </div>
    </fieldset>
  );
}
