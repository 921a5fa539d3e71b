import type { ReactNode } from "react";
import { Link } from "react-router";
import { ButtonLink, buttonClasses } from "~/components/ui/button";
import { PhoneIcon } from "~/components/ui/icons";
import { type Translator, useTranslation } from "~/i18n";
import type { ShortlistRow } from "~/schemas/shortlist-view";
import "virtual:catalogue/shortlist";

type ComparisonProps = {
  rows: ShortlistRow[];
  /** What each place offers below its lines (Remove, on one's own list); nothing on a shared copy. */
  actions?: (row: ShortlistRow) => ReactNode;
};

/**
 * Saved places compared (ADR 054): side by side in a table on wide screens,
 * one card each on phones. A place that is no longer public keeps its ad
 * number and says so. The call buttons have the line about paying only after
 * a visit beside them (ADR 077).
 */
export function Comparison({ rows, actions }: ComparisonProps) {
  return (
    <>
      <ComparisonTable rows={rows} actions={actions} />
      <ul className="mt-4 grid gap-4 lg:hidden" data-testid="shortlist-cards">
        {rows.map((row) => (
          <li key={row.id}>
            <ShortlistCard row={row} actions={actions} />
          </li>
        ))}
      </ul>
    </>
  );
}

function CallLink({ href }: { href: string | null }) {
  const { t } = useTranslation();
  if (!href) return <span className="text-sm text-slate-600">{t("shortlist.notStated")}</span>;
  return (
    <a href={href} className={buttonClasses("primary", "md")}>
      <PhoneIcon className="h-5 w-5" />
      {t("shortlist.callNow")}
    </a>
  );
}

/** 'Never pay … before you have seen the place' beside the call buttons (ADR 077; the listing page writes its own). */
function PayAfterVisit({ className }: { className: string }) {
  const { t } = useTranslation();
  return <p className={`rounded-md bg-amber-50 text-amber-900 ${className}`}>{t("common.payAfterVisit")}</p>;
}

/** How a place is named: its title while public, else its ad number (nothing its owner wrote). */
export function placeName(t: Translator, row: ShortlistRow): string {
  return row.available ? row.title : t("shortlist.goneName", { adNumber: String(row.id) });
}

function TitleLink({ row }: { row: ShortlistRow }) {
  const { t } = useTranslation();
  if (!row.available) return <span className="font-semibold break-words">{placeName(t, row)}</span>;
  return (
    <Link to={`/listing/${row.slug}`} className="font-semibold break-words text-brand-700 underline underline-offset-2">
      {row.title}
    </Link>
  );
}

type Available = Extract<ShortlistRow, { available: true }>;

/** The comparison's lines, in order: each a label and what a place shows for it. */
function useComparisonLines(): { label: string; cell: (row: Available) => ReactNode }[] {
  const { t } = useTranslation();
  const notStated = t("shortlist.notStated");
  return [
    { label: t("shortlist.rows.rent"), cell: (row) => <span className="font-semibold">{row.priceLine}</span> },
    { label: t("shortlist.rows.moveIn"), cell: (row) => row.moveIn ?? notStated },
    { label: t("shortlist.rows.distance"), cell: (row) => row.distance ?? notStated },
    { label: t("shortlist.rows.type"), cell: (row) => row.typeLabel },
    { label: t("shortlist.rows.suits"), cell: (row) => row.genderLabel },
    { label: t("shortlist.rows.facts"), cell: (row) => (row.facts.length > 0 ? row.facts.join(" · ") : notStated) },
    {
      label: t("shortlist.rows.checked"),
      cell: (row) => (row.checked.length > 0 ? row.checked.join(" · ") : t("shortlist.nothingChecked")),
    },
    { label: t("shortlist.rows.confirmed"), cell: (row) => row.confirmed },
    { label: t("shortlist.rows.contact"), cell: (row) => <CallLink href={row.phoneHref} /> },
  ];
}

/** Wide screens: the places side by side, one column each. */
function ComparisonTable({ rows, actions }: ComparisonProps) {
  const { t } = useTranslation();
  const lines = useComparisonLines();
  return (
    <div className="mt-4 hidden overflow-x-auto lg:block" data-testid="shortlist-table">
      <table className="w-full min-w-max border-collapse text-left text-sm">
        <caption className="sr-only">{t("shortlist.table.caption")}</caption>
        <thead>
          <tr>
            <th scope="col" className="w-36 p-3 align-bottom">
              <span className="sr-only">{t("shortlist.table.place")}</span>
            </th>
            {rows.map((row) => (
              <th key={row.id} scope="col" className="w-60 max-w-60 p-3 align-top font-normal">
                {row.available && row.photo ? (
                  // Data saver (ADR 090): a lazy image in a closed <details> is fetched once it is opened.
                  <details className="tap" open={!row.photo.tapToShow}>
                    <summary>{row.photo.tapToShow}</summary>
                    <img
                      src={row.photo.url}
                      srcSet={row.photo.srcSet || undefined}
                      sizes="240px"
                      width={row.photo.width}
                      height={row.photo.height}
                      alt=""
                      loading="lazy"
                      className="mb-2 aspect-[4/3] w-full rounded-lg object-cover"
                    />
                  </details>
                ) : null}
                <TitleLink row={row} />
                {row.available ? <p className="mt-1 text-slate-600">{row.universityLabel}</p> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => (
            <tr key={line.label} className="border-t border-slate-200">
              <th scope="row" className="p-3 align-top font-medium text-slate-600">
                {line.label}
              </th>
              {rows.map((row) =>
                row.available ? (
                  <td key={row.id} className="p-3 align-top">
                    {line.cell(row)}
                  </td>
                ) : index === 0 ? (
                  <td key={row.id} rowSpan={lines.length} className="p-3 align-top">
                    <p className="font-semibold text-amber-900">{t("shortlist.gone")}</p>
                    <p className="mt-1 text-slate-600">{t("shortlist.goneText")}</p>
                  </td>
                ) : null,
              )}
            </tr>
          ))}
          {rows.some((row) => row.available && row.phoneHref) ? (
            <tr>
              <td />
              <td colSpan={rows.length} className="px-3 pb-3">
                <PayAfterVisit className="px-3 py-2 text-sm" />
              </td>
            </tr>
          ) : null}
          {actions ? (
            <tr className="border-t border-slate-200">
              <td />
              {rows.map((row) => (
                <td key={row.id} className="p-3">
                  {actions(row)}
                </td>
              ))}
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

/** Phones: a card per place, the same lines one under another. */
function ShortlistCard({ row, actions }: { row: ShortlistRow; actions?: ComparisonProps["actions"] }) {
  const { t } = useTranslation();
  const lines = useComparisonLines();
  return (
    <article className="rounded-xl border border-slate-200 p-4">
      <h2 className="text-base">
        <TitleLink row={row} />
      </h2>
      {row.available ? (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          {lines.map((line) => (
            <div key={line.label} className="contents">
              <dt className="text-slate-600">{line.label}</dt>
              <dd>{line.cell(row)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <div className="mt-2 text-sm">
          <p className="font-semibold text-amber-900">{t("shortlist.gone")}</p>
          <p className="mt-1 text-slate-600">{t("shortlist.goneText")}</p>
        </div>
      )}
      {row.available && row.phoneHref ? <PayAfterVisit className="mt-3 px-2 py-1 text-xs" /> : null}
      {actions ? <div className="mt-3">{actions(row)}</div> : null}
    </article>
  );
}

/** Nothing to compare (an empty list, a link no longer shared): what it means, and a way on to browse. */
export function NothingSaved({
  level,
  title,
  text,
  action,
}: {
  level: "h1" | "h2";
  title: string;
  text: string;
  action: string;
}) {
  const Heading = level;
  return (
    <div className="mt-8 rounded-xl border border-dashed border-slate-300 p-8 text-center">
      <Heading className={level === "h1" ? "text-2xl font-bold" : "text-lg font-semibold"}>{title}</Heading>
      <p className="mt-1 text-slate-700">{text}</p>
      <ButtonLink to="/browse" className="mt-4">
        {action}
      </ButtonLink>
    </div>
  );
}
