import { createContext, data, Form, Link, redirect, useActionData } from "react-router";
import { thisBrowserOnly } from "~/auth/this-browser-only.server";
import { useEnhanced } from "~/components/forms/use-enhanced";
import { Comparison, NothingSaved, placeName } from "~/components/shortlist/comparison";
import { SharePanel } from "~/components/shortlist/share-panel";
import { Banner } from "~/components/ui/banner";
import { buttonClasses } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import { localePath, withoutLocale } from "~/i18n/locales";
import { safeRedirect } from "~/lib/safe-redirect";
import { parseAdNumber } from "~/lib/slug";
import { findListingsByIds } from "~/models/listing.server";
import { countListingTap } from "~/models/listing-taps.server";
import {
  removeFromShortlist,
  SHORTLIST_MAX,
  saveToShortlist,
  shareCodeOf,
  shareShortlist,
  shortlistIds,
  stopSharingShortlist,
} from "~/models/shortlist.server";
import { hashViewerId } from "~/models/view-tracking.server";
import { shortlistMeta, shortlistResult, toShortlistRow } from "~/pages/shortlist-page.server";
import type { ShortlistActionResult, ShortlistNotice, ShortlistRow } from "~/schemas/shortlist-view";
import { isSameOrigin } from "~/security/origin.server";
import { readForm } from "~/security/read-form.server";
import { savedCookieHeader } from "~/security/saved-cookie.server";
import { visitorIdentity, visitorIdFrom } from "~/security/visitor-id.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/shortlist";
import "virtual:catalogue/shortlist";

// The shortlist (ADR 054): one browser's saved places, side by side.
// Personal: never in the page cache or a shared cache; this browser's worker keeps it offline (ADR 088).
export const middleware: Route.MiddlewareFunction[] = [thisBrowserOnly];

export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

/** The visitor id the action just gave a new browser: its cookie is not in this request yet. */
const issuedVisitor = createContext<string | null>(null);

type Done = Extract<ShortlistNotice, "saved" | "removed" | "shared" | "unshared">;
const DONE = new Set<Done>(["saved", "removed", "shared", "unshared"]);

/** What a post without JavaScript was redirected here with: `?done=saved&back=/browse` (Post/Redirect/Get). */
function noticeFrom(url: URL, ids: readonly number[]): ShortlistActionResult | null {
  const done = url.searchParams.get("done");
  if (!DONE.has(done as Done)) return null;
  return shortlistResult(done as Done, backPath(url.searchParams.get("back")), ids);
}

/**
 * The page a form was posted from, as a path in the page's language (React
 * Router adds the language back), when it is a page of ours other than the
 * shortlist itself; null otherwise (no Referer: a privacy setting, another site).
 */
function refererPath(request: Request, siteUrl: string): string | null {
  const referer = request.headers.get("referer");
  if (!referer) return null;
  const path = safeRedirect(referer, "", siteUrl);
  if (!path) return null;
  const local = withoutLocale(path.split("?")[0]) + (path.includes("?") ? path.slice(path.indexOf("?")) : "");
  return local.startsWith("/shortlist") ? null : local;
}

/** Where the visitor was: a path on this site, or nothing. */
function backPath(value: FormDataEntryValue | null): string | null {
  return typeof value === "string" && value !== "" ? safeRedirect(value, "/browse") : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env, secrets, locale, phones, dataSaver } = context.get(requestContext);
  const visitorId = context.get(issuedVisitor) ?? visitorIdFrom(request.headers.get("cookie"), secrets.sessionSecret);
  const visitorKey = visitorId ? hashViewerId(secrets.visitorSalt, "visitor", visitorId) : null;
  const [ids, code] = visitorKey
    ? await Promise.all([shortlistIds(db, visitorKey), shareCodeOf(db, visitorKey)])
    : [[], null];
  const listings = await findListingsByIds(db, ids);
  const rows: ShortlistRow[] = listings.map((listing) => toShortlistRow(listing, phones.enabled, dataSaver));
  // The shared link speaks the sharer's language: a parent most likely reads the same.
  const shareUrl = code ? `${env.siteUrl}${localePath(locale, `/s/${code}`)}` : null;
  return data(
    {
      rows,
      max: SHORTLIST_MAX,
      share: { url: shareUrl, siteName: env.SITE_NAME },
      meta: shortlistMeta(env.SITE_NAME),
      notice: noticeFrom(new URL(request.url), ids),
    },
    // The page's script marks saved cards from this cookie: brought up to date on every visit here.
    { headers: { "Set-Cookie": savedCookieHeader(ids, { secure: env.siteUrl.startsWith("https:") }) } },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, env, secrets, limiter, clientIp } = context.get(requestContext);
  const secure = env.siteUrl.startsWith("https:");
  if (!isSameOrigin(request, env.siteUrl)) return data(shortlistResult("origin", null, []), { status: 403 });
  const form = await readForm(request);
  // Where the visitor was: the page that posted (its Referer, a page of ours), for the 'Back' link.
  const back = backPath(form.get("back")) ?? refererPath(request, env.siteUrl);
  /** Done: in place for a script (`enhanced=1`), else Post/Redirect/Get to this page, which says what happened. */
  const done = (notice: Done, ids: readonly number[], headers: Headers) => {
    if (form.get("enhanced") === "1") return data(shortlistResult(notice, back, ids), { headers });
    const query = new URLSearchParams({ done: notice, ...(back ? { back } : {}) });
    // React Router adds the page's language (its basename) to the path.
    return redirect(`/shortlist?${query}`, { status: 303, headers });
  };
  const intent = form.get("intent");
  const listingId = parseAdNumber(String(form.get("listing") ?? ""));
  const sharing = intent === "share" || intent === "unshare";
  if (!sharing && ((intent !== "save" && intent !== "remove") || !listingId))
    return data(shortlistResult("invalid", back, []), { status: 400 });

  // The list belongs to the browser's signed visitor id; a browser without one gets one now.
  const visitor = visitorIdentity(request.headers.get("cookie"), secrets.sessionSecret, { secure });
  const visitorKey = hashViewerId(secrets.visitorSalt, "visitor", visitor.visitorId);
  const headers = new Headers();
  if (visitor.setCookie) {
    headers.append("Set-Cookie", visitor.setCookie);
    context.set(issuedVisitor, visitor.visitorId);
  }

  if (intent === "share" || intent === "unshare") {
    const ids = await shortlistIds(db, visitorKey);
    if (intent === "unshare") await stopSharingShortlist(db, visitorKey);
    // A browser with no list has nothing to share (the button shows only beside saved places).
    else if (!(await shareShortlist(db, visitorKey)))
      return data(shortlistResult("invalid", back, []), { status: 400 });
    return done(intent === "share" ? "shared" : "unshared", ids, headers);
  }
  if (!listingId) return data(shortlistResult("invalid", back, []), { status: 400 });
  if (intent === "remove") {
    const left = await removeFromShortlist(db, visitorKey, listingId);
    headers.append("Set-Cookie", savedCookieHeader(left, { secure }));
    return done("removed", left, headers);
  }
  const saved = await saveToShortlist(db, visitorKey, listingId, {
    mayCreate: async () => (await limiter.consume("shortlistNew", { ip: clientIp })).ok,
  });
  if (saved.ok) {
    // Once per browser (else address), listing and day in the owner's figures (ADR 089).
    const saver = { visitorKey: visitor.issued ? null : visitorKey, clientIp };
    if (saved.added && !visitor.forged) await countListingTap(db, limiter, { listingId, kind: "save" }, saver);
    headers.append("Set-Cookie", savedCookieHeader(saved.ids, { secure }));
    return done("saved", saved.ids, headers);
  }
  const refusal = { full: ["full", 409], unavailable: ["unavailable", 409], refused: ["tooMany", 429] } as const;
  const [notice, status] = refusal[saved.code];
  return data(shortlistResult(notice, back, []), { status, headers });
}

export default function ShortlistPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { rows, max, notice, share } = loaderData;
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
        <NothingSaved
          level="h2"
          title={t("shortlist.empty.title")}
          text={t("shortlist.empty.text")}
          action={t("shortlist.empty.browse")}
        />
      ) : (
        <>
          <p className="mt-4 font-semibold" data-testid="shortlist-count">
            {t("shortlist.count", { count: rows.length })}
          </p>
          <Comparison rows={rows} actions={(row) => <RemoveButton row={row} />} />
          <SharePanel url={share.url} siteName={share.siteName} />
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
        <span className="sr-only">: {placeName(t, row)}</span>
      </button>
    </Form>
  );
}
