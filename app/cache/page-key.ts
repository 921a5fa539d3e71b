/**
 * Which requests the anonymous page cache may answer, and the one key equal
 * requests share (ADR 012). Pure functions: the fast path calls them on every
 * request, before Express.
 */
import { withoutLocale } from "~/i18n/locales";
import { API_DEFAULT_LIMIT, LIST_QUERY_PARAMS } from "~/schemas/browse-filters";

/**
 * The kind of page, which decides what invalidates it: any listing write (lists), its own listing
 * (listing), or only a change to everything (fixed: pages that show no listing and no count of them).
 */
export type PageKind = "list" | "listing" | "fixed";

/**
 * Public pages whose content is a function of the URL, the database and the
 * clock only. Everything else (sign-in pages, the dashboard, the report form,
 * reset links carrying a token, photos, POST-only endpoints) is never cached.
 * React Router's data requests (`/browse.data`, `/_root.data` for the home
 * page) are cached like their documents.
 */
const CACHEABLE: readonly [RegExp, PageKind][] = [
  [/^\/(?:_root\.data)?$/, "list"],
  [/^\/(?:browse|old-browse|about)(?:\.data)?$/, "list"],
  // Their loaders read the configuration and the URL only: a listing write changes nothing on them.
  [/^\/(?:contact|privacy|terms)(?:\.data)?$/, "fixed"],
  [/^\/(?:search\/[^/]+(?:\/[^/]+)?|university\/[^/]+|city\/[^/]+)(?:\.data)?$/, "list"],
  [/^\/listing\/[^/]+?(?:\.data)?$/, "listing"],
  [/^\/sitemap[^/]*\.xml$/, "list"],
  [/^\/robots\.txt$/, "fixed"],
  [/^\/api\/listings$/, "list"],
  [/^\/api\/(?:universities|openapi\.json)$/, "fixed"],
  [/^\/api\/listings\/[^/]+$/, "listing"],
  [/^\/(?:getAdsForSEO|getAdsByUniversity\/[^/]+)$/, "list"],
  [/^\/getAdForSEO\/[^/]+$/, "listing"],
  // React Router's route discovery (ADR 135): which routes the links of a page lead to, for this build.
  [/^\/__manifest$/, "fixed"],
];

export function cacheablePageKind(pathname: string): PageKind | null {
  // /si/browse and /ta/browse are the same page in another language (ADR 033); the key keeps the prefix.
  const page = withoutLocale(pathname);
  for (const [pattern, kind] of CACHEABLE) if (pattern.test(page)) return kind;
  return null;
}

/**
 * Resource routes whose answer is the same whoever asks (they never read a
 * session): the JSON API and the spec's compatible paths,
 * the sitemap, robots.txt and React Router's route discovery. A session cookie does not take them past the
 * cache, signed or not.
 */
const SAME_FOR_EVERYONE =
  /^\/(?:api\/|getAdsForSEO$|getAdForSEO\/|getAdsByUniversity\/|sitemap[^/]*\.xml$|robots\.txt$|__manifest$)/;

export function isSameForEveryone(pathname: string): boolean {
  return SAME_FOR_EVERYONE.test(withoutLocale(pathname));
}

/** A listing page (the document or its data), whose views are counted; not its report form or the API. */
export function isListingPage(pathname: string): boolean {
  return /^\/listing\/[^/]+?(?:\.data)?$/.test(withoutLocale(pathname));
}

/**
 * The parameters public pages read: the browse and list API's
 * (LIST_QUERY_PARAMS; the sitemap's `page` is one of them), the contact
 * form's prefill, and React Router's `_routes`. Any other (utm_source,
 * fbclid, a random one) is left out of the key and of the URL rendered, so
 * it can neither split an entry nor be used to fill the cache with copies.
 */
const KNOWN_PARAMS = new Set<string>([...LIST_QUERY_PARAMS, "subject", "listing", "_routes"]);
/** What React Router's route discovery reads: the paths asked about and the build they are asked of. */
const MANIFEST_PARAMS = new Set<string>(["paths", "version"]);

/** The sitemap, in any language prefix: its `page=1` is a page of its own. */
function isSitemapPath(pathname: string): boolean {
  return /^\/sitemap[^/]*\.xml$/.test(withoutLocale(pathname));
}

/** Parameters whose value is the default: leaving them out changes nothing on the page. */
function isDefault(name: string, value: string, params: Map<string, string>, pathname: string): boolean {
  switch (name) {
    case "page":
      // A list's first page is the list; the sitemap's first page is not its index (ADR 134).
      return value === "1" && !isSitemapPath(pathname);
    case "propertyType":
      return value.toLowerCase() === "all";
    case "gender":
      return value.toLowerCase() === "any";
    case "sort":
      // Without a search the default order is newest; with one, relevance (searchListings).
      return value === (params.has("search") || params.has("q") ? "relevance" : "newest");
    case "limit":
      return pathname.startsWith("/api/") && value === String(API_DEFAULT_LIMIT);
    default:
      return false;
  }
}

/**
 * The normalised URL of a request: parameters sorted by name, only the first
 * value of a repeated one (the pages read the first), empty, unknown and
 * default ones left out. A cache miss renders this URL, so every request that shares the
 * key gets exactly the page it would have got on its own.
 */
export function normalisePageUrl(pathname: string, search: string): string {
  if (search === "" || search === "?") return pathname;
  const known = withoutLocale(pathname) === "/__manifest" ? MANIFEST_PARAMS : KNOWN_PARAMS;
  const params = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(search)) {
    if (known.has(name) && !params.has(name) && value.trim() !== "") params.set(name, value);
  }
  const kept = [...params]
    .filter(([name, value]) => !isDefault(name, value, params, pathname))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (kept.length === 0) return pathname;
  return `${pathname}?${new URLSearchParams(kept).toString()}`;
}
