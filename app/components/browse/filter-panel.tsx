import type { FormEvent, ReactNode } from "react";
import { buttonClasses, inputClasses } from "~/components/ui/button";
import { ChevronDownIcon } from "~/components/ui/icons";
import { useLocalePath, useTranslation } from "~/i18n";
import type { GenderFilter, PropertyType } from "~/schemas/browse-filters";
import type { Choice } from "~/schemas/browse-view";
import { FILTER_FORM_ID, type FilterDraft } from "~/schemas/filter-draft";
import { FACT_FILTER_PARAMS, FACT_FILTER_VALUES, FREE_BEDS_OPTIONS } from "~/schemas/listing-facts";
import "virtual:catalogue/browse";

export type FilterPanelProps = {
  /** The values the form starts with (the filters of the shown results). */
  values: FilterDraft;
  /** Universities to choose from (the directory's, from the loader): the English name and its label. */
  universities: Choice[];
  /** The chosen university's faculties; null hides the faculty choice. */
  faculties: Choice[] | null;
  /** Property type and gender values (from the loader, so the filter schema stays on the server). */
  propertyTypes: readonly PropertyType[];
  /** 'Max move-in cost' amounts, written by the loader. */
  moveInChoices: Choice[];
  /** 'Within' choices ('2 km'); null hides them (no university chosen). */
  withinChoices: Choice[] | null;
  genders: readonly GenderFilter[];
  /** '2 active' on the drawer's summary, or null. */
  activeLabel: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** A new key starts the form afresh from `values` (the drawer stays as it is). */
  resetKey: number;
};

const fieldClass = `mt-1 ${inputClasses}`;
const labelClass = "block text-sm font-medium text-slate-800";

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
    </div>
  );
}

/**
 * The filters as one GET form to /browse, so it works without JavaScript;
 * with JavaScript the page submits each change itself (replace, page 1; see
 * app/routes/browse.tsx, which listens for changes around the form).
 * A <details> drawer on phones; always open as a sidebar from lg (1024 px).
 */
export function FilterPanel({
  values,
  universities,
  faculties,
  propertyTypes,
  moveInChoices,
  withinChoices,
  genders,
  activeLabel,
  onSubmit,
  resetKey,
}: FilterPanelProps) {
  const { t } = useTranslation();
  const localise = useLocalePath();

  return (
    <details className="group rounded-xl border border-slate-200 bg-white lg:border-0 lg:[&::details-content]:[content-visibility:visible]">
      <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-2 px-4 font-semibold lg:hidden [&::-webkit-details-marker]:hidden">
        <span className="flex items-center gap-2">
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className="h-5 w-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M3 5h14M6 10h8M9 15h2" strokeLinecap="round" />
          </svg>
          {t("browse.filters.toggle")}
          {activeLabel ? (
            <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs text-white">{activeLabel}</span>
          ) : null}
        </span>
        <ChevronDownIcon className="h-5 w-5 transition-transform group-open:rotate-180" />
      </summary>

      <form
        key={resetKey}
        id={FILTER_FORM_ID}
        method="get"
        action={localise("/browse")}
        onSubmit={onSubmit}
        className="space-y-5 border-t border-slate-200 p-4 lg:border-0 lg:p-0"
      >
        <h2 className="hidden text-lg font-semibold lg:block">{t("browse.filters.heading")}</h2>

        {values.location ? <input type="hidden" name="location" value={values.location} /> : null}
        {values.city ? <input type="hidden" name="city" value={values.city} /> : null}

        <ChoiceField
          name="university"
          anyLabel={t("browse.filters.allUniversities")}
          value={values.university}
          choices={universities}
        />

        {faculties ? (
          <Field id="filter-faculty" label={t("browse.filters.faculty")}>
            {/* Keyed by university: another university's list starts from 'All Faculties'. */}
            <select
              key={values.university}
              id="filter-faculty"
              name="faculty"
              defaultValue={values.faculty}
              className={fieldClass}
            >
              <option value="">{t("browse.filters.allFaculties")}</option>
              <Options choices={faculties} />
            </select>
          </Field>
        ) : null}

        {withinChoices ? (
          <ChoiceField
            name="within"
            anyLabel={t("browse.filters.anyWithin")}
            value={values.within}
            choices={withinChoices}
          />
        ) : null}

        <Field id="filter-type" label={t("browse.filters.propertyType")}>
          <select id="filter-type" name="propertyType" defaultValue={values.propertyType} className={fieldClass}>
            <option value="">{t("browse.filters.allTypes")}</option>
            {propertyTypes.map((type) => (
              <option key={type} value={type}>
                {t(`browse.propertyTypes.${type}`)}
              </option>
            ))}
          </select>
        </Field>

        <fieldset>
          <legend className={labelClass}>{t("browse.filters.priceRange")}</legend>
          <div className="mt-1 grid grid-cols-2 gap-3">
            {(["minPrice", "maxPrice"] as const).map((field) => (
              <div key={field}>
                <label htmlFor={`filter-${field}`} className="block text-sm text-slate-700">
                  {t(`browse.filters.${field}`)}
                </label>
                <input
                  id={`filter-${field}`}
                  name={field}
                  type="text"
                  inputMode="numeric"
                  pattern="[0-9]*"
                  autoComplete="off"
                  maxLength={8}
                  placeholder={t("browse.filters.pricePlaceholder")}
                  defaultValue={values[field]}
                  className={fieldClass}
                />
              </div>
            ))}
          </div>
        </fieldset>

        <ChoiceField
          name="maxMoveIn"
          anyLabel={t("browse.filters.anyMoveIn")}
          value={values.maxMoveIn}
          choices={moveInChoices}
        />

        <Field id="filter-gender" label={t("browse.filters.gender")}>
          <select id="filter-gender" name="gender" defaultValue={values.gender} className={fieldClass}>
            <option value="">{t("browse.filters.anyGender")}</option>
            {genders.map((g) => (
              <option key={g} value={g}>
                {t(`browse.genders.${g}`)}
              </option>
            ))}
          </select>
        </Field>

        <fieldset>
          <legend className={labelClass}>{t("browse.filters.facts.mustHave")}</legend>
          <div className="mt-1 grid grid-cols-1 gap-x-3 sm:grid-cols-2 lg:grid-cols-1">
            {FACT_FILTER_PARAMS.map((param) => (
              <label key={param} className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name={param}
                  value={FACT_FILTER_VALUES[param]}
                  defaultChecked={values[param] !== ""}
                  className="h-5 w-5 accent-brand-700"
                />
                {t(`browse.filters.facts.${param}`)}
              </label>
            ))}
          </div>
        </fieldset>

        <Field id="filter-freeBeds" label={t("browse.filters.facts.freeBeds")}>
          <select id="filter-freeBeds" name="freeBeds" defaultValue={values.freeBeds} className={fieldClass}>
            <option value="">{t("browse.filters.facts.anyBeds")}</option>
            {FREE_BEDS_OPTIONS.map((count) => (
              <option key={count} value={count}>
                {t("browse.filters.facts.freeBedsOption", { count })}
              </option>
            ))}
          </select>
        </Field>

        <button type="submit" className={buttonClasses("primary", "md", "w-full")}>
          {t("browse.filters.apply")}
        </button>
      </form>
    </details>
  );
}

/** A select of the loader's choices, after an empty one that is no filter. */
function ChoiceField({
  name,
  anyLabel,
  value,
  choices,
}: {
  /** The query parameter; its label is `browse.filters.{name}`. */
  name: "university" | "within" | "maxMoveIn";
  anyLabel: string;
  value: string;
  choices: Choice[];
}) {
  const { t } = useTranslation();
  const id = `filter-${name}`;
  return (
    <Field id={id} label={t(`browse.filters.${name}`)}>
      <select id={id} name={name} defaultValue={value} className={fieldClass}>
        <option value="">{anyLabel}</option>
        <Options choices={choices} />
      </select>
    </Field>
  );
}

/** A select's choices: the English name is the value, the label is in the reader's language. */
function Options({ choices }: { choices: Choice[] }) {
  return choices.map(({ value, label }) => (
    <option key={value} value={value}>
      {label}
    </option>
  ));
}
