import { useNavigate } from "react-router";
import { useLocalePath, useTranslation } from "~/i18n";
import { formatLkr } from "~/lib/format";
import type { Choice } from "~/schemas/browse-view";
import { MAX_PRICE_OPTIONS } from "~/schemas/price-choices";
import { Button } from "./ui/button";
import { FormField } from "./ui/form-field";
import { SearchIcon } from "./ui/icons";
import { Select } from "./ui/select";
import "virtual:catalogue/home";

const HOME_PROPERTY_TYPES = ["single", "shared", "apartment"] as const;
const HOME_GENDERS = ["male", "female"] as const;

/**
 * The hero search. A plain GET form to
 * /browse; with JavaScript, empty choices are left out of the URL.
 */
export function HomeSearchForm({ universities, cities }: { universities: Choice[]; cities: Choice[] }) {
  const { t } = useTranslation();
  const localise = useLocalePath();
  const navigate = useNavigate();

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(event.currentTarget)) {
      if (typeof value === "string" && value !== "") params.append(key, value);
    }
    const query = params.toString();
    navigate(query ? `/browse?${query}` : "/browse");
  };

  const fields = [
    {
      name: "university",
      label: t("home.search.university"),
      options: [{ value: "", label: t("home.search.anyUniversity") }, ...universities],
    },
    {
      name: "location",
      label: t("home.search.location"),
      options: [{ value: "", label: t("home.search.anyLocation") }, ...cities],
    },
    {
      name: "maxPrice",
      label: t("home.search.maxPrice"),
      options: [
        { value: "", label: t("home.search.anyPrice") },
        ...MAX_PRICE_OPTIONS.map((p) => ({
          value: String(p),
          label: t("home.search.under", { amount: formatLkr(p) }),
        })),
      ],
    },
    {
      name: "propertyType",
      label: t("home.search.propertyType"),
      options: [
        { value: "", label: t("home.search.anyType") },
        ...HOME_PROPERTY_TYPES.map((p) => ({ value: p, label: t(`home.search.types.${p}`) })),
      ],
    },
    {
      name: "gender",
      label: t("home.search.gender"),
      options: [
        { value: "", label: t("home.search.genders.any") },
        ...HOME_GENDERS.map((g) => ({ value: g, label: t(`home.search.genders.${g}`) })),
      ],
    },
  ];

  return (
    <form
      method="get"
      action={localise("/browse")}
      onSubmit={onSubmit}
      aria-labelledby="home-search-heading"
      className="rounded-2xl bg-white p-4 text-slate-900 shadow-lg sm:p-6"
    >
      <h2 id="home-search-heading" className="sr-only">
        {t("home.search.heading")}
      </h2>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {fields.map((field) => (
          <FormField
            key={field.name}
            id={`home-${field.name}`}
            name={field.name}
            label={field.label}
            className={field.name === "university" ? "sm:col-span-2 lg:col-span-1" : ""}
          >
            {(control) => <Select {...control} options={field.options} defaultValue="" />}
          </FormField>
        ))}
        <div className="flex items-end">
          <Button type="submit" size="lg" className="w-full">
            <SearchIcon className="h-5 w-5" />
            {t("home.search.submit")}
          </Button>
        </div>
      </div>
    </form>
  );
}
