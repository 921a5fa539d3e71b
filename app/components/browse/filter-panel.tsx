import type { FormEvent } from "react";
import { buttonClasses, inputClasses } from "~/components/ui/button";
import { ChevronDownIcon, FiltersIcon } from "~/components/ui/icons";
import { useLocalePath } from "~/i18n";
import type { FilterFormView, SelectView } from "~/schemas/browse-view";
import { FILTER_FORM_ID } from "~/schemas/filter-draft";

export type FilterPanelProps = {
  /** Texts, choices and starting values, all from the loader, so the filter lists and constants stay on the server. */
  view: FilterFormView;
  /** '2 active' on the drawer's summary, or null. */
  activeLabel: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** A new key starts the form afresh from the view's values (the drawer stays as it is). */
  resetKey: number;
};

const fieldClass = `mt-1 ${inputClasses}`;
const labelClass = "block text-sm font-medium text-slate-800";

/**
 * The filters as one GET form to /browse, so it works without JavaScript;
 * with JavaScript the page submits each change itself (replace, page 1; see
 * app/routes/browse.tsx, which listens for changes around the form).
 * A <details> drawer on phones; always open as a sidebar from lg (1024 px).
 */
export function FilterPanel({ view, activeLabel, onSubmit, resetKey }: FilterPanelProps) {
  const localise = useLocalePath();
  const { prices, facts } = view;

  return (
    <details className="group rounded-xl border border-slate-200 bg-white lg:border-0 lg:[&::details-content]:[content-visibility:visible]">
      <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-2 px-4 font-semibold lg:hidden [&::-webkit-details-marker]:hidden">
        <span className="flex items-center gap-2">
          <FiltersIcon />
          {view.toggle}
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
        <h2 className="hidden text-lg font-semibold lg:block">{view.heading}</h2>

        {view.hidden.map(({ name, value }) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}

        {view.upper.map((select) => (
          <SelectField key={select.key} view={select} />
        ))}

        <fieldset>
          <legend className={labelClass}>{prices.legend}</legend>
          <div className="mt-1 grid grid-cols-2 gap-3">
            {prices.inputs.map(({ name, label, value }) => (
              <div key={name}>
                <label htmlFor={`filter-${name}`} className="block text-sm text-slate-700">
                  {label}
                </label>
                <input
                  id={`filter-${name}`}
                  name={name}
                  type="text"
                  inputMode="numeric"
                  pattern="[0-9]*"
                  autoComplete="off"
                  maxLength={8}
                  placeholder={prices.placeholder}
                  defaultValue={value}
                  className={fieldClass}
                />
              </div>
            ))}
          </div>
        </fieldset>

        {view.lower.map((select) => (
          <SelectField key={select.key} view={select} />
        ))}

        <fieldset>
          <legend className={labelClass}>{facts.legend}</legend>
          <div className="mt-1 grid grid-cols-1 gap-x-3 sm:grid-cols-2 lg:grid-cols-1">
            {facts.boxes.map(({ name, label, value, checked }) => (
              <label key={name} className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name={name}
                  value={value}
                  defaultChecked={checked}
                  className="h-5 w-5 accent-brand-700"
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>

        <SelectField view={view.freeBeds} />

        <button type="submit" className={buttonClasses("primary", "md", "w-full")}>
          {view.apply}
        </button>
      </form>
    </details>
  );
}

/** A labelled select of the loader's choices. */
function SelectField({ view: { id, name, label, value, choices } }: { view: SelectView }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className={fieldClass}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}
