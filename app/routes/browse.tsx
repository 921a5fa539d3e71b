import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, type ShouldRevalidateFunction, useLocation, useNavigate, useNavigation } from "react-router";
import { EmptyState } from "~/components/browse/empty-state";
import { FilterChips } from "~/components/browse/filter-chips";
import { FilterPanel } from "~/components/browse/filter-panel";
import { LinkNotice } from "~/components/browse/link-notice";
import { MapToggle } from "~/components/browse/map-toggle";
import { PaginationNav } from "~/components/browse/pagination";
import { SearchBox } from "~/components/browse/search-box";
import { SortSelect } from "~/components/browse/sort-select";
import { ListingCard } from "~/components/listing-card";
import { loadBrowsePage, type PathKey } from "~/pages/browse-page.server";
import type { PathFilters } from "~/schemas/browse-filters";
import { draftToSearchParams, type FilterDraft } from "~/schemas/filter-draft";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/browse";

const PATH_KEYS: PathKey[] = ["university", "location", "city"];
const DEBOUNCE_MS = 400;

// Titles, descriptions and structured data come ready-made from the loader,
// like every text and link below that depends on the filters
// (app/pages/browse-page.server.ts): the browser needs no filter code.
export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

// Saving a place to the shortlist changes nothing this loader shows (the Save button keeps its own state).
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  !formAction?.endsWith("/shortlist") && defaultShouldRevalidate;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, env, phones, dataSaver, counts } = context.get(requestContext);
  const site = { siteName: env.SITE_NAME, siteUrl: env.siteUrl };
  return loadBrowsePage(db, new URL(request.url), params as PathFilters, site, phones.enabled, dataSaver, counts);
}

export default function Browse({ loaderData }: Route.ComponentProps) {
  const { form, fromPath } = loaderData;
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();

  // The inputs keep what the user types; they start afresh (a new key) when
  // the address changes by other means: a chip, a link, Back.
  const [formKey, setFormKey] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The address this page navigated to itself: arriving there must not overwrite what the user is typing.
  const selfNavigated = useRef<string | null>(null);
  const shownUrl = useRef("");
  const currentUrl = location.pathname + location.search;

  useEffect(() => {
    if (shownUrl.current && shownUrl.current !== currentUrl && selfNavigated.current !== currentUrl)
      setFormKey((k) => k + 1);
    shownUrl.current = currentUrl;
    selfNavigated.current = null;
  }, [currentUrl]);

  useEffect(() => () => clearTimeout(timer.current), []);

  /** Every filter change replaces the history entry and goes back to page 1. */
  function apply(filterForm: HTMLFormElement, changed?: string) {
    clearTimeout(timer.current);
    const next = Object.fromEntries(new FormData(filterForm)) as Partial<FilterDraft>;
    // A faculty belongs to the university it was chosen with.
    if (changed === "university") delete next.faculty;
    // Stay on /university/x (and the like) while its path value is unchanged; otherwise /browse carries everything.
    const pathKept = PATH_KEYS.every((key) => !fromPath[key] || (next[key] ?? "") === form[key]);
    const query = draftToSearchParams(next, pathKept ? fromPath : {}).toString();
    const pathname = pathKept ? location.pathname : "/browse";
    const target = query ? `${pathname}?${query}` : pathname;
    if (target === currentUrl) return;
    selfNavigated.current = target;
    void navigate(target, { replace: true, preventScrollReset: true });
  }

  /** Choices apply at once; typed text (search, prices) after a short pause. */
  function onChange(event: FormEvent) {
    const { form: filterForm, name, tagName } = event.target as HTMLInputElement | HTMLSelectElement;
    if (!filterForm) return;
    clearTimeout(timer.current);
    if (tagName === "SELECT") apply(filterForm, name);
    else timer.current = setTimeout(() => apply(filterForm), DEBOUNCE_MS);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    apply(event.currentTarget);
  }

  const busy = navigation.state === "loading";

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 lg:py-8" onChange={onChange}>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{loaderData.heading}</h1>

      <div className="mt-4">
        <SearchBox key={formKey} value={form.search} />
      </div>

      <div className="mt-6 lg:grid lg:grid-cols-[17rem_1fr] lg:gap-8">
        <aside className="mb-6 lg:mb-0" aria-label={loaderData.filterForm.heading}>
          <FilterPanel
            resetKey={formKey}
            view={loaderData.filterForm}
            activeLabel={loaderData.activeLabel}
            onSubmit={onSubmit}
          />
        </aside>

        <section aria-labelledby="browse-results-count" aria-busy={busy} className="min-w-0">
          {loaderData.notice ? <LinkNotice text={loaderData.notice} /> : null}

          <FilterChips chips={loaderData.chips} clearHref="/browse" />
          <MapToggle query={draftToSearchParams(form).toString()} />
          <Link
            to={loaderData.alert.href}
            className="mt-3 inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-2"
          >
            {loaderData.alert.label}
          </Link>

          <div className="mt-4 flex flex-wrap items-end justify-between gap-3">
            <div role="status">
              <h2 id="browse-results-count" className="text-xl font-bold">
                {loaderData.found}
              </h2>
              {loaderData.pageOf ? <p className="text-sm text-slate-600">{loaderData.pageOf}</p> : null}
            </div>
            <SortSelect key={formKey} view={loaderData.sort} />
          </div>

          <div className={`mt-4 transition-opacity ${busy ? "opacity-60" : ""}`}>
            {loaderData.ads.length > 0 ? (
              <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
                {loaderData.ads.map((listing, index) => (
                  <li key={listing.id}>
                    <ListingCard listing={listing} eager={index < 2} />
                  </li>
                ))}
              </ul>
            ) : (
              <EmptyState firstPageHref={loaderData.firstPageHref ?? undefined} />
            )}
          </div>

          <PaginationNav nav={loaderData.pages} />
        </section>
      </div>
    </div>
  );
}
