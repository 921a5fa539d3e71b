import { LISTED_STATUS } from "../../app/schemas/listing-status.ts";
import type { Random } from "../../app/seed/random.ts";
import { withAppModules } from "../app-modules.ts";
import type { ListingGroup, ListingRef, UrlCatalogue } from "./urls.ts";

/** Words the synthetic listings are written with (app/seed/listing-text.ts), as people type them. */
const SEARCH_WORDS = [
  "room",
  "single",
  "shared",
  "sharing",
  "annex",
  "apartment",
  "hostel",
  "furnished",
  "kitchen",
  "bathroom",
  "attached",
  "quiet",
  "family",
  "girls",
  "boys",
  "students",
  "meals",
  "wifi",
  "parking",
  "walk",
  "bus",
  "bed",
  "upstairs",
  "spacious",
  "water",
  "laundry",
  "cctv",
  "near",
  "campus",
  "sofa",
];

/**
 * Reads from the seeded database what the URL mixes are made of: listings
 * counted per filter values, `wanted` public listings picked at random (by
 * `random`, so a run can be repeated), and the app's own filter values and
 * neighbourhoods. Runs before the server starts.
 */
export async function loadCatalogue(options: {
  databaseUrl?: string;
  dataDir: string;
  wanted: number;
  random: Random;
}): Promise<UrlCatalogue> {
  return withAppModules(async (load) => {
    const { createDatabase } = await load<typeof import("../../app/db/db.server.ts")>("/app/db/db.server.ts");
    const filters = await load<typeof import("../../app/schemas/browse-filters.ts")>("/app/schemas/browse-filters.ts");
    const { allCampuses } = await load<typeof import("../../app/seed/places.ts")>("/app/seed/places.ts");
    const { db, destroy } = createDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
    try {
      const now = new Date().toISOString();
      const groupRows = await db
        .selectFrom("listings")
        .select([
          "university",
          "faculty",
          "city",
          "propertyType",
          "gender",
          "price",
          (eb) => eb.fn.countAll().as("count"),
        ])
        .where("status", "=", LISTED_STATUS)
        .where("expiresAt", ">", now)
        .groupBy(["university", "faculty", "city", "propertyType", "gender", "price"])
        .execute();
      const groups: ListingGroup[] = groupRows.map((g) => ({ ...g, price: Number(g.price), count: Number(g.count) }));

      // Ids are dense after a seed, so a sample of the id range is a sample of the listings.
      const range = await db
        .selectFrom("listings")
        .select((eb) => [eb.fn.min("id").as("low"), eb.fn.max("id").as("high")])
        .executeTakeFirstOrThrow();
      const low = Number(range.low);
      const ids = Array.from({ length: Number(range.high) - low + 1 }, (_, i) => low + i);
      const picked = options.random.sample(ids, options.wanted);
      const slugs = new Map<number, string>();
      for (let i = 0; i < picked.length; i += 500) {
        const rows = await db
          .selectFrom("listings")
          .select(["id", "slug"])
          .where("id", "in", picked.slice(i, i + 500))
          .where("status", "=", LISTED_STATUS)
          .where("expiresAt", ">", now)
          .execute();
        for (const row of rows) slugs.set(Number(row.id), row.slug);
      }
      const listings: ListingRef[] = picked.filter((id) => slugs.has(id)).map((id) => ({ id, slug: slugs.get(id)! }));

      const places = new Map<string, { name: string; university: string }>();
      for (const campus of allCampuses()) {
        for (const area of campus.place.areas) {
          const name = area.split(",")[0].trim();
          places.set(`${name}|${campus.university.name}`, { name, university: campus.university.name });
        }
      }
      const nicknames = new Set(allCampuses().map((c) => c.place.nickname));

      return {
        listings,
        groups,
        places: [...places.values()],
        words: [...SEARCH_WORDS, ...nicknames],
        browsePageSize: filters.BROWSE_PAGE_SIZE,
        apiLimits: [filters.API_DEFAULT_LIMIT, filters.API_MAX_LIMIT],
        prices: filters.MAX_PRICE_OPTIONS,
        sorts: filters.SORTS.filter((s) => s !== "relevance"),
      };
    } finally {
      await destroy();
    }
  });
}
