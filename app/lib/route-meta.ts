import { type MetaDescriptor, useRouteLoaderData } from "react-router";
import { type MessageKey, type Translator, translatorOf } from "~/i18n";
import { type Locale, localeOrDefault } from "~/i18n/locales";
import { pageMeta } from "~/lib/seo";

/** The site's name and address and the page's language. The root loader gives them to every page (app/root.tsx). */
export type Site = { siteName: string; siteUrl: string; locale: Locale };

/** What a route's `meta` builds its tags from: the site, and text in the page's language. */
export type MetaSite = Site & { t: Translator };

/** What every route's `meta` receives: the root route is always the first match. */
type MetaArgsWithRoot = { matches: readonly [{ loaderData: Partial<Site> | undefined }, ...unknown[]] };

/**
 * A route's `meta`, handed the site's name, address and language from the root
 * loader's data, and a translator for that language: page loaders need not
 * return them for the head tags.
 *
 *   export const meta: Route.MetaFunction = routeMeta((site, { loaderData }) => pageMeta({ ...site, ... }));
 */
export function routeMeta<Args extends MetaArgsWithRoot>(
  build: (site: MetaSite, args: Args) => MetaDescriptor[],
): (args: Args) => MetaDescriptor[] {
  // Tests may call a meta function with loaderData alone: then the fallback applies.
  return (args) => {
    const site = siteOf(args.matches?.[0]?.loaderData);
    return build({ ...site, t: translatorOf(site.locale) }, args);
  };
}

/** A page whose head tags are `pageMeta` of two catalogue texts (given the site's name) and its address. */
export type CataloguePage<LoaderData> = {
  title: MessageKey;
  description: MessageKey;
  /** The canonical path, or how to read it from the loader's data. */
  path: string | ((loaderData: LoaderData) => string);
  noindex?: boolean;
};

/**
 * The `meta` of such a page. None while its loader has failed (no data): the
 * error page's own tags stand.
 *
 *   export const meta: Route.MetaFunction = cataloguePageMeta({ title: "…", description: "…", path: "/about" });
 */
export function cataloguePageMeta<Args extends MetaArgsWithRoot & { loaderData: unknown }>(
  page: CataloguePage<Exclude<Args["loaderData"], undefined>>,
): (args: Args) => MetaDescriptor[] {
  return routeMeta<Args>((site, { loaderData }) => {
    if (loaderData === undefined) return [];
    const data = loaderData as Exclude<Args["loaderData"], undefined>;
    return pageMeta({
      ...site,
      title: site.t(page.title, site),
      description: site.t(page.description, site),
      path: typeof page.path === "string" ? page.path : page.path(data),
      noindex: page.noindex,
    });
  });
}

/**
 * The `meta` of a private page: one's own pages and those about signing in
 * (never cached either: their `noStore` middleware, ADR 016), which search
 * engines are asked not to index.
 *
 *   export const meta: Route.MetaFunction = privatePageMeta({ title: "…", description: "…", path: "/login" });
 */
export function privatePageMeta<Args extends MetaArgsWithRoot & { loaderData: unknown }>(
  page: Omit<CataloguePage<Exclude<Args["loaderData"], undefined>>, "noindex">,
): (args: Args) => MetaDescriptor[] {
  return cataloguePageMeta<Args>({ ...page, noindex: true });
}

/** The same for a page's component (its loader need not return them either). */
export function useSite(): Site {
  return siteOf(useRouteLoaderData<Site>("root"));
}

// The root loader always runs first; the fallback is root.tsx's own.
function siteOf(root: Partial<Site> | undefined): Site {
  return {
    siteName: root?.siteName ?? "Bodima",
    siteUrl: root?.siteUrl ?? "",
    locale: localeOrDefault(root?.locale),
  };
}
