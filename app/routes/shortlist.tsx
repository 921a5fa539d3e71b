import { createContext, data, Form, Link, redirect, useActionData } from "react-router";
import { useEnhanced } from "~/components/forms/use-enhanced";
import { Banner } from "~/components/ui/banner";
import { ButtonLink, buttonClasses } from "~/components/ui/button";
import { PhoneIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import { safeRedirect } from "~/lib/safe-redirect";
import { parseAdNumber } from "~/lib/slug";
import { findListingsByIds } from "~/models/listing.server";
import { removeFromShortlist, SHORTLIST_MAX, saveToShortlist, shortlistIds } from "~/models/shortlist.server";
import { hashViewerId } from "~/models/view-tracking.server";
import { shortlistMeta, shortlistResult, toShortlistRow } from "~/pages/shortlist-page.server";
import type { ShortlistActionResult, ShortlistRow } from "~/schemas/shortlist-view";
import { noStore } from "~/security/no-store.server";
import { isSameOrigin } from "~/security/origin.server";
import { readForm } from "~/security/read-form.server";
import { savedCookieHeader } from "~/security/saved-cookie.server";
import { visitorIdentity, visitorIdFrom } from "~/security/visitor-id.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/shortlist";
import "virtual:catalogue/shortlist";

// The shortlist (issue 13, ADR 054): one browser's saved places, side by side.
// Personal, so never cached (the page cache only keeps the public kinds of page).
export const middleware: Route.MiddlewareFunction[] = [noStore];

export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

/** The visitor id the action just gave a new browser: its cookie is not in this request yet. */
const issuedVisitor = createContext<string | null>(null);

/** What a post without JavaScript was redirected here with: `?done=saved&back=/browse` (Post/Redirect/Get). */
function noticeFrom(url: URL, ids: readonly number[]): ShortlistActionResult | null {
  const done = url.searchParams.get("done");
  if (done !== "saved" && done !== "removed") return null;
  return shortlistResult(done, backPath(url.searchParams.get("back")), ids);
}

/** Where the visitor was: a path on this site, or nothing. */
function backPath(value: FormDataEntryValue | null): string | null {
  return typeof value === "string" && value !== "" ? safeRedirect(value, "/browse") : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env, secrets } = context.get(requestContext);
  const visitorId = context.get(issuedVisitor) ?? visitorIdFrom(request.headers.get("cookie"), secrets.sessionSecret);
  const ids = visitorId ? await shortlistIds(db, hashViewerId(secrets.visitorSalt, "visitor", visitorId)) : [];
  const listings = await findListingsByIds(db, ids);
  const rows: ShortlistRow[] = listings.map(toShortlistRow);
  return data(
    { rows, max: SHORTLIST_MAX, meta: shortlistMeta(env.SITE_NAME), notice: noticeFrom(new URL(request.url), ids) },
    // The page's script marks saved cards from this cookie: brought up to date on every visit here.
    { headers: { "Set-Cookie": savedCookieHeader(ids, { secure: env.siteUrl.startsWith("https:") }) } },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, env, secrets, limiter, clientIp } = context.get(requestContext);
  const secure = env.siteUrl.startsWith("https:");
  if (!isSameOrigin(request, env.siteUrl)) return data(shortlistResult("origin", null, []), { status: 403 });
  const form = await readForm(request);
  const back = backPath(form.get("back"));
  /** Done: in place for a script (`enhanced=1`), else Post/Redirect/Get to this page, which says what happened. */
  const done = (notice: "saved" | "removed", ids: readonly number[], headers: Headers) => {
    if (form.get("enhanced") === "1") return data(shortlistResult(notice, back, ids), { headers });
    const query = new URLSearchParams({ done: notice, ...(back ? { back } : {}) });
    // React Router adds the page's language (its basename) to the path.
    return redirect(`/shortlist?${query}`, { status: 303, headers });
  };
  const intent = form.get("intent");
  const listingId = parseAdNumber(String(form.get("listing") ?? ""));
  if ((intent !== "save" && intent !== "remove") || !listingId)
    return data(shortlistResult("invalid", back, []), { status: 400 });

  // The list belongs to the browser's signed visitor id; a browser without one gets one now.
  const visitor = visitorIdentity(request.headers.get("cookie"), secrets.sessionSecret, { secure });
  const visitorKey = hashViewerId(secrets.visitorSalt, "visitor", visitor.visitorId);
  const headers = new Headers();
  if (visitor.setCookie) {
    headers.append("Set-Cookie", visitor.setCookie);
    context.set(issuedVisitor, visitor.visitorId);
  }

  if (intent === "remove") {
    const left = await removeFromShortlist(db, visitorKey, listingId);
    headers.append("Set-Cookie", savedCookieHeader(left, { secure }));
    return done("removed", left, headers);
  }
  const saved = await saveToShortlist(db, visitorKey, listingId, {
    mayCreate: async () => (await limiter.consume("shortlistNew", { ip: clientIp })).ok,
  });
  if (saved.ok) {
    headers.append("Set-Cookie", savedCookieHeader(saved.ids, { secure }));
    return done("saved", saved.ids, headers);
  }
  const refusal = { full: ["full", 409], unavailable: ["unavailable", 409], refused: ["tooMany", 429] } as const;
  const [notice, status] = refusal[saved.code];
  return data(shortlistResult(notice, back, []), { status, headers });
}

export default function ShortlistPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { rows, max, notice } = loaderData;
  const result = useActionData<typeof action>() ?? notice;

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 lg:py-8">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("shortlist.heading")}</h1>
      <p className="mt-1 text-slate-700">{t("shortlist.intro", { max })}</p>

      {result ? (
        <Banner
          variant={result.status === "refused" ? "error" : "success"}
          title={result.message}
          className="mt-4"
          data-testid="shortlist-notice"
        >
          {result.back ? (
            <Link to={result.back} className="font-medium underline underline-offset-2">
              {t("shortlist.back")}
            </Link>
          ) : null}
        </Banner>
      ) : null}

      {rows.length === 0 ? (
        <div className="mt-8 rounded-xl border border-dashed border-slate-300 p-8 text-center">
          <h2 className="text-lg font-semibold">{t("shortlist.empty.title")}</h2>
          <p className="mt-1 text-slate-700">{t("shortlist.empty.text")}</p>
          <ButtonLink to="/browse" className="mt-4">
            {t("shortlist.empty.browse")}
          </ButtonLink>
        </div>
      ) : (
        <>
          <p className="mt-4 font-semibold" data-testid="shortlist-count">
            {t("shortlist.count", { count: rows.length })}
          </p>
          <ComparisonTable rows={rows} />
          <ul className="mt-4 grid gap-4 lg:hidden" data-testid="shortlist-cards">
            {rows.map((row) => (
              <li key={row.id}>
                <ShortlistCard row={row} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** Takes a place out of the list: a plain form post, with or without JavaScript. */
function RemoveButton({ row }: { row: ShortlistRow }) {
  const { t } = useTranslation();
  const enhanced = useEnhanced();
  return (
    <Form method="post" action="/shortlist" preventScrollReset>
      <input type="hidden" name="listing" value={row.id} />
      {enhanced ? <input type="hidden" name="enhanced" value="1" /> : null}
      <button type="submit" name="intent" value="remove" className={buttonClasses("secondary", "md")}>
        {t("shortlist.remove")}
        <span className="sr-only">: {row.title}</span>
      </button>
    </Form>
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

function TitleLink({ row }: { row: ShortlistRow }) {
  if (!row.available) return <span className="font-semibold break-words">{row.title}</span>;
  return (
    <Link to={`/listing/${row.slug}`} className="font-semibold break-words text-brand-700 underline underline-offset-2">
      {row.title}
    </Link>
  );
}

type Available = Extract<ShortlistRow, { available: true }>;

/** The comparison's lines, in order: each a label and what a place shows for it. */
function useComparisonLines(): { label: string; cell: (row: Available) => React.ReactNode }[] {
  const { t } = useTranslation();
  const notStated = t("shortlist.notStated");
  return [
    { label: t("shortlist.rows.rent"), cell: (row) => <span className="font-semibold">{row.priceLine}</span> },
    { label: t("shortlist.rows.moveIn"), cell: (row) => row.moveIn ?? notStated },
    { label: t("shortlist.rows.distance"), cell: (row) => row.distance ?? notStated },
    { label: t("shortlist.rows.type"), cell: (row) => row.typeLabel },
    { label: t("shortlist.rows.suits"), cell: (row) => row.genderLabel },
    { label: t("shortlist.rows.facts"), cell: (row) => (row.facts.length > 0 ? row.facts.join(" · ") : notStated) },
    { label: t("shortlist.rows.posted"), cell: (row) => row.posted },
    { label: t("shortlist.rows.contact"), cell: (row) => <CallLink href={row.phoneHref} /> },
  ];
}

/** Wide screens: the places side by side, one column each. */
function ComparisonTable({ rows }: { rows: ShortlistRow[] }) {
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
          <tr className="border-t border-slate-200">
            <td />
            {rows.map((row) => (
              <td key={row.id} className="p-3">
                <RemoveButton row={row} />
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** Phones: a card per place, the same lines one under another. */
function ShortlistCard({ row }: { row: ShortlistRow }) {
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
      <div className="mt-3">
        <RemoveButton row={row} />
      </div>
    </article>
  );
}
