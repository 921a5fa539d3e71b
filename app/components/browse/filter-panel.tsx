import type { FormEvent, ReactNode } from "react";
import { findUniversity, UNIVERSITIES } from "~/directory/universities";
import { buttonClasses } from "~/components/ui/button";
import { inputClasses } from "~/components/ui/form-field";
import { ChevronDownIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import { GENDERS, PROPERTY_TYPES } from "~/schemas/browse-filters";
import { type DraftField, FILTER_FORM_ID, type FilterDraft } from "./filter-draft";
import "virtual:catalogue/browse";

export type FilterPanelProps = {
  draft: FilterDraft;
  /** `debounce` for typed values (search text, prices); selects apply at once. */
  onFieldChange: (field: DraftField, value: string, mode: "now" | "debounce") => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  activeCount: number;
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
 * with JavaScript the page submits each change itself (replace, page 1).
 * A <details> drawer on phones; always open as a sidebar from lg (1024 px).
 */
export function FilterPanel({ draft, onFieldChange, onSubmit, activeCount }: FilterPanelProps) {
  const { t } = useTranslation();
  const university = draft.university ? findUniversity(draft.university) : undefined;
  const unknownUniversity = draft.university && !university ? draft.university : null;
  const faculties = university?.faculties ?? [];
  const unknownFaculty = draft.faculty && !faculties.some((f) => f.name === draft.faculty) ? draft.faculty : null;

  return (
    <details className="group rounded-xl border border-slate-200 bg-white lg:border-0 lg:[&::details-content]:[content-visibility:visible]">
      <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-2 px-4 font-semibold lg:hidden [&::-webkit-details-marker]:hidden">
        <span className="flex items-center gap-2">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M3 5h14M6 10h8M9 15h2" strokeLinecap="round" />
          </svg>
          {t("browse.filters.toggle")}
          {activeCount > 0 ? (
            <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs text-white">{t("browse.filters.activeCount", { count: activeCount })}</span>
          ) : null}
        </span>
        <ChevronDownIcon className="h-5 w-5 transition-transform group-open:rotate-180" />
      </summary>

      <form id={FILTER_FORM_ID} method="get" action="/browse" onSubmit={onSubmit} className="space-y-5 border-t border-slate-200 p-4 lg:border-0 lg:p-0">
        <h2 className="hidden text-lg font-semibold lg:block">{t("browse.filters.heading")}</h2>

        {draft.location ? <input type="hidden" name="location" value={draft.location} /> : null}
        {draft.city ? <input type="hidden" name="city" value={draft.city} /> : null}

        <Field id="filter-university" label={t("browse.filters.university")}>
          <select
            id="filter-university"
            name="university"
            value={draft.university}
            onChange={(e) => onFieldChange("university", e.target.value, "now")}
            className={fieldClass}
          >
            <option value="">{t("browse.filters.allUniversities")}</option>
            {UNIVERSITIES.map((u) => (
              <option key={u.id} value={u.name}>
                {u.name}
              </option>
            ))}
            {unknownUniversity ? <option value={unknownUniversity}>{unknownUniversity}</option> : null}
          </select>
        </Field>

        {university || unknownFaculty ? (
          <Field id="filter-faculty" label={t("browse.filters.faculty")}>
            <select
              id="filter-faculty"
              name="faculty"
              value={draft.faculty}
              onChange={(e) => onFieldChange("faculty", e.target.value, "now")}
              className={fieldClass}
            >
              <option value="">{t("browse.filters.allFaculties")}</option>
              {faculties.map((f) => (
                <option key={f.id} value={f.name}>
                  {f.name}
                </option>
              ))}
              {unknownFaculty ? <option value={unknownFaculty}>{unknownFaculty}</option> : null}
            </select>
          </Field>
        ) : null}

        <Field id="filter-type" label={t("browse.filters.propertyType")}>
          <select
            id="filter-type"
            name="propertyType"
            value={draft.propertyType}
            onChange={(e) => onFieldChange("propertyType", e.target.value, "now")}
            className={fieldClass}
          >
            <option value="">{t("browse.filters.allTypes")}</option>
            {PROPERTY_TYPES.map((type) => (
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
                  value={draft[field]}
                  onChange={(e) => onFieldChange(field, e.target.value, "debounce")}
                  className={fieldClass}
                />
              </div>
            ))}
          </div>
        </fieldset>

        <Field id="filter-gender" label={t("browse.filters.gender")}>
          <select
            id="filter-gender"
            name="gender"
            value={draft.gender}
            onChange={(e) => onFieldChange("gender", e.target.value, "now")}
            className={fieldClass}
          >
            <option value="">{t("browse.filters.anyGender")}</option>
            {GENDERS.filter((g) => g !== "any").map((g) => (
              <option key={g} value={g}>
                {t(`browse.genders.${g}`)}
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
