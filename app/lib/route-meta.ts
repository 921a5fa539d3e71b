import { type MetaDescriptor, useRouteLoaderData } from "react-router";

/** The site's name and address. The root loader gives them to every page (app/root.tsx). */
export type Site = { siteName: string; siteUrl: string };

/** What every route's `meta` receives: the root route is always the first match. */
type MetaArgsWithRoot = { matches: readonly [{ loaderData: Site | undefined }, ...unknown[]] };

/**
 * A route's `meta`, handed the site's name and address from the root loader's
 * data: page loaders need not return them for the head tags.
 *
 *   export const meta: Route.MetaFunction = routeMeta((site, { loaderData }) => pageMeta({ ...site, ... }));
 */
export function routeMeta<Args extends MetaArgsWithRoot>(
  build: (site: Site, args: Args) => MetaDescriptor[],
): (args: Args) => MetaDescriptor[] {
  // Tests may call a meta function with loaderData alone: then the fallback applies.
  return (args) => build(siteOf(args.matches?.[0]?.loaderData), args);
}

/** The same for a page's component (its loader need not return them either). */
export function useSite(): Site {
  return siteOf(useRouteLoaderData<Site>("root"));
}

// The root loader always runs first; the fallback is root.tsx's own.
function siteOf(root: Site | undefined): Site {
  return { siteName: root?.siteName ?? "Bodima", siteUrl: root?.siteUrl ?? "" };
}
