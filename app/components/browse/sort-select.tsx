import { inputClasses } from "~/components/ui/button";
import type { SelectView } from "~/schemas/browse-view";
import { FILTER_FORM_ID } from "~/schemas/filter-draft";

/**
 * Part of the filter form (form attribute), so it is sent with the other filters without JavaScript too.
 * The loader writes its choices: 'Best match' while there is search text, 'Nearest first' with a university.
 */
export function SortSelect({ view }: { view: SelectView }) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={view.id} className="text-sm font-medium whitespace-nowrap text-slate-700">
        {view.label}
      </label>
      <select
        id={view.id}
        name={view.name}
        form={FILTER_FORM_ID}
        defaultValue={view.value}
        className={`${inputClasses} w-auto text-sm`}
      >
        {view.choices.map(({ value, label }) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}
