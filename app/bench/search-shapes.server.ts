import { createDatabase } from "~/db/db.server";
import { type SearchResult, searchListings } from "~/models/listing-search.server";
import { BROWSE_PAGE_SIZE, type PathFilters, parseBrowseFilters } from "~/schemas/browse-filters";

type Shape = { name: string; path: string };

/** The filters and page the browse routes (app/routes.ts) read from a public URL. */
export function browseQueryFromPath(pathAndQuery: string): ReturnType<typeof parseBrowseFilters> {
  const url = new URL(pathAndQuery, "http://localhost");
  const segments = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const path: PathFilters = {};
  if (segments[0] === "search") Object.assign(path, { location: segments[1], university: segments[2] });
  else if (segments[0] === "university") path.university = segments[1];
  else if (segments[0] === "city") path.city = segments[1];
  return parseBrowseFilters(url.searchParams, path);
}

function foundText(result: SearchResult): string {
  const { total, totalIsExact } = result.pagination;
  return `${totalIsExact ? "" : "more than "}${total.toLocaleString("en-US")}`;
}

/**
 * Times each shape through searchListings on one database connection, the
 * way a server process answers one request at a time (scripts/search-shapes.ts).
 */
export async function timeSearchShapes(
  target: { databaseUrl?: string; dataDir: string },
  shapes: Shape[],
  time: (shapes: Shape[], run: (shape: Shape) => Promise<string>) => Promise<unknown>,
): Promise<void> {
  const { db, destroy } = createDatabase({ ...target, poolSize: 1 });
  try {
    await time(shapes, async (shape) => {
      const { filters, page } = browseQueryFromPath(shape.path);
      return foundText(await searchListings(db, filters, { page, limit: BROWSE_PAGE_SIZE }));
    });
  } finally {
    await destroy();
  }
}
