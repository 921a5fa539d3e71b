import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import { COUNT_EVERY_TIME, type CountMemo } from "~/db/count-memo.server";
import type { DB } from "~/db/db.server";
import type { Database } from "~/db/schema";
import { isPostgres, locationRestriction } from "~/db/search.server";
import { currentTime } from "~/lib/clock";
import { searchArea } from "~/lib/geo/nearby";
import { type Pagination, paginate } from "~/lib/pagination";
import { type BrowseFilters, type DistanceOrigin, distanceOrigin } from "~/schemas/browse-filters";
import { LISTED_STATUS } from "~/schemas/listing-status";
import type { ListingSummary } from "~/schemas/listing-view";
import { listingsWithChecks } from "./listing-checks.server";
import { distanceSquared, filterConditions, filtersTextSearch, insideArea, type Walk } from "./listing-filters.server";
import { photosFor, toSummary } from "./listing-summary.server";

/*
 * Listing search: the browse pages, the map, the API's list and search alerts
 * read public listings through searchListings, in the database over all
 * listings (docs/architecture.md; ADR 011 on the counts and indexes).
 */

/**
 * Counting stops after this many matches: beyond it a page says "More than
 * 10,000" and offers the first 10,000 in its order (ADR 011). Counting every
 * one of a million matches would take longer than the whole page may.
 */
export const COUNT_LIMIT = 10_000;

/**
 * A text search or a place name counts no more than this many matches, and a
 * search ranks no more than this many, the newest: "More than 1,000 boarding
 * places found" (ADR 046). Each match counted or ranked is a table row read,
 * and PostgreSQL took 45 ms to read 10,000 at 1,000,000 listings.
 */
export const TEXT_COUNT_LIMIT = 1_000;

/**
 * PostgreSQL: a text search first reads the `first` newest ads, checking each,
 * and reads on while it expects to pass the bound within `mostWalked` ads
 * (about 50 ms from memory at 100,000); rarer matches are asked of the
 * full-text index (ADR 046).
 */
export type SearchWindows = { first: number; mostWalked: number };
const SEARCH_WINDOWS: SearchWindows = { first: 16_384, mostWalked: 100_000 };

/** The highest ad number, read from the primary key's last entry. */
export async function newestAdNumber(db: DB): Promise<number> {
  const row = await db
    .selectFrom("listings")
    .select((eb) => eb.fn.max("listings.id").as("top"))
    .executeTakeFirst();
  return Number(row?.top ?? 0);
}

export type SearchResult = { ads: ListingSummary[]; pagination: Pagination };

/**
 * Filters, full-text search, ordering and pagination, all in the database.
 * Counts are exact up to `countLimit`; past it the total is that bound and
 * the pages reach that many listings (ADR 011).
 */
export async function searchListings(
  db: DB,
  filters: BrowseFilters,
  options: {
    page: number;
    limit: number;
    now?: Date;
    countLimit?: number;
    /** PostgreSQL's search windows (ADR 046), smaller in tests so a few hundred listings take every path. */
    searchWindows?: SearchWindows;
    /** Up to how many matches 'Nearest first' sorts at once (ADR 050); 0 in tests takes the rings. */
    nearestAtOnce?: number;
    /** Remembered counts per filter set (ADR 096); without it every search counts. */
    counts?: CountMemo;
  },
): Promise<SearchResult> {
  const now = (options.now ?? currentTime()).toISOString();
  const search = await filtersTextSearch(db, filters);
  const where = (walk: Walk) => (eb: ExpressionBuilder<Database, "listings">) =>
    eb.and(filterConditions(db, eb, filters, now, walk));
  const offset = (options.page - 1) * options.limit;
  const nearestFrom = filters.sort === "nearest" ? distanceOrigin(filters) : null;

  let ids: number[];
  let pagination: Pagination;
  if (search) {
    const countLimit = options.countLimit ?? TEXT_COUNT_LIMIT;
    // The matches with the newest ad numbers, one more than the bound so a
    // larger total is known, each with what the orders need (ADR 011), among
    // the ads numbered above `floor` when there is one (ADR 046).
    // Among the ads numbered above `floor`, if any, read newest first with the
    // match checked on each row (`walk`) or found by the full-text index.
    type Round = { floor: number | null; walk: boolean };
    const candidates = ({ floor, walk }: Round) => {
      const from = db.selectFrom("listings");
      let query = (walk && search.checkEachRow ? search.checkEachRow(from) : search.restrict(from))
        .select(["listings.id", "listings.createdAt", "listings.price", search.titleScore.as("score")])
        .select(sql<number>`case when ${sql.ref("listings.unconfirmedSince")} is null then 0 else 1 end`.as("sunk"))
        .select(nearestFrom ? distanceSquared(searchArea(nearestFrom, 0)).as("d2") : sql<number>`0`.as("d2"))
        .where(where("planner"));
      if (floor !== null) query = query.where("listings.id", ">", floor);
      return query.orderBy(search.newestFirst, "desc").limit(countLimit + 1);
    };
    // Counted and sorted in the database: only one page of ids comes back.
    const rankedPage = (round: Round) => {
      const numbered = db
        .selectFrom(candidates(round).as("c"))
        .selectAll("c")
        .select([
          sql<number>`count(*) over ()`.as("total"),
          sql<number>`row_number() over (order by c.id desc)`.as("position"),
        ]);
      let ranked = db.selectFrom(numbered.as("m")).select(["m.id", "m.total"]).where("m.position", "<=", countLimit);
      const sort = filters.sort ?? "relevance";
      // Places students say may be let go last, whatever the order (ADR 059).
      ranked = ranked.orderBy("m.sunk", "asc");
      if (sort === "relevance") ranked = ranked.orderBy("m.score", "desc");
      else if (sort === "price_asc") ranked = ranked.orderBy("m.price", "asc");
      else if (sort === "price_desc") ranked = ranked.orderBy("m.price", "desc");
      else if (sort === "nearest") ranked = ranked.orderBy("m.d2", "asc");
      return ranked
        .orderBy("m.createdAt", "desc")
        .orderBy("m.id", "desc")
        .limit(options.limit)
        .offset(offset)
        .execute();
    };
    // PostgreSQL's full-text index gathers every match before the newest can
    // be picked (150 ms for three common words at 1,000,000 listings), so it
    // first reads the newest ads and checks each; from the share that matched
    // it then either reads on until the bound is passed, or, for rarer
    // matches, asks the index within a window of ad numbers expected to hold
    // them. SQLite's index reads its matches newest first and stops by itself.
    const top = search.checkEachRow && offset < countLimit ? await newestAdNumber(db) : null;
    const floorOf = (span: number) => (top !== null && top - span > 0 ? top - span : null);
    const windows = options.searchWindows ?? SEARCH_WINDOWS;
    let round: Round = { floor: floorOf(windows.first), walk: true };
    let rows = await rankedPage(round);
    while (top !== null && round.floor !== null) {
      const found = rows.length > 0 ? Number(rows[0].total) : 0;
      if (found > countLimit) break; // The newest matches are all in the window.
      // How many of the newest ads would hold the bound at the share seen so far.
      const needed = found > 0 ? ((countLimit + 1) * (top - round.floor)) / found : Number.POSITIVE_INFINITY;
      round =
        needed <= windows.mostWalked
          ? { floor: floorOf(Math.ceil(needed * 2)), walk: true }
          : { floor: floorOf(Math.ceil(needed * 1.5)), walk: false };
      rows = await rankedPage(round);
    }
    // A page past the end has no rows to carry the total.
    const total = rows.length > 0 ? Number(rows[0].total) : await countRows(db, candidates(round));
    pagination = paginate(options.page, options.limit, Math.min(total, countLimit), total <= countLimit);
    ids = rows.map((r) => r.id);
  } else {
    const countLimit = options.countLimit ?? (filters.location ? TEXT_COUNT_LIMIT : COUNT_LIMIT);
    // The order and the page change no count: every page and order of a filter set shares one.
    const { sort: _sort, ...counted } = filters;
    const total = await (options.counts ?? COUNT_EVERY_TIME).count(countKey(counted, countLimit), () =>
      countMatches(db, filters, now, countLimit),
    );
    pagination = paginate(options.page, options.limit, Math.min(total, countLimit), total <= countLimit);
    if (total === 0 || options.page > pagination.totalPages) return { ads: [], pagination };
    // Places students say may be let sink below the rest (ADR 059): almost always there are none.
    // Checked on each of those few rows ('newest' hides the filters' indexes, and a location is
    // matched as text rather than through its trigram index, which would gather every match).
    const sunk = await sunkMatches(db, where("newest"), filters.sort, nearestFrom, now);
    const confirmed = (walk: Walk) =>
      sunk.length === 0
        ? where(walk)
        : (eb: ExpressionBuilder<Database, "listings">) => eb.and([where(walk)(eb), eb("listings.id", "not in", sunk)]);
    const page = async (): Promise<number[]> => {
      if (nearestFrom)
        return nearestIds(db, confirmed("planner"), nearestFrom, {
          within: filters.within,
          few: total <= (options.nearestAtOnce ?? NEAREST_AT_ONCE),
          offset,
          limit: options.limit,
        });
      // Past the bound the matches are common enough that walking the order's
      // own index finds a page soonest; fewer are best found from the filters'
      // indexes and sorted (ADR 011).
      const byPrice = filters.sort === "price_asc" || filters.sort === "price_desc";
      const walk: Walk = pagination.totalIsExact ? "planner" : byPrice ? "price" : "newest";
      const rows = await inPageOrder(
        db.selectFrom("listings").select("listings.id").where(confirmed(walk)),
        filters.sort,
      )
        .limit(options.limit)
        .offset(offset)
        .execute();
      return rows.map((r) => r.id);
    };
    ids = await page();
    if (sunk.length > 0 && ids.length < options.limit) {
      // The confirmed matches ran out on this page: the sunk ones follow.
      const before =
        ids.length > 0
          ? offset + ids.length
          : await countRows(
              db,
              db.selectFrom("listings").select("listings.id").where(confirmed("planner")).limit(offset),
            );
      const from = Math.max(offset, before) - before;
      ids = [...ids, ...sunk.slice(from, offset + options.limit - before)];
    }
  }
  return { ads: await summaries(db, ids, new Date(now)), pagination };
}

/**
 * Of the listings numbered `ids`, the public ones a search matches, newest
 * first: a search alert's places that went public long after they were posted
 * (a listing held for review and approved later, ADR 083).
 */
export async function matchingListings(
  db: DB,
  filters: BrowseFilters,
  ids: readonly number[],
  now: Date,
): Promise<ListingSummary[]> {
  if (ids.length === 0) return [];
  const at = now.toISOString();
  const search = await filtersTextSearch(db, filters);
  const from = db
    .selectFrom("listings")
    .select("listings.id")
    .where("listings.id", "in", [...ids]);
  const rows = await (search ? (search.checkEachRow ?? search.restrict)(from) : from)
    .where((eb) => eb.and(filterConditions(db, eb, filters, at, "planner")))
    .orderBy("listings.id", "desc")
    .execute();
  return summaries(
    db,
    rows.map((r) => r.id),
    now,
  );
}

/**
 * The public listings whose availability students doubt (`unconfirmedSince`,
 * ADR 057), read from migration 026's partial index of them alone.
 */
async function doubtedIds(db: DB, now: string): Promise<number[]> {
  // SQLite is told the index (its planner does not know how few entries it holds); PostgreSQL knows.
  const indexedBy = isPostgres(db) ? sql`` : sql`indexed by listings_unconfirmed_idx`;
  // Written into the text, not bound: only then does it match the partial index's own condition.
  const { rows } = await sql<{ id: number }>`
    select id from listings ${indexedBy}
    where "unconfirmedSince" is not null and "status" = ${sql.lit(LISTED_STATUS)} and "expiresAt" > ${now}`.execute(db);
  return rows.map((r) => Number(r.id));
}

/**
 * Of the doubted listings, those matching a search, in its order: the ones
 * browse shows after all the others (ADR 059). One read of a tiny index when,
 * as nearly always, there are none.
 */
async function sunkMatches(
  db: DB,
  matches: (eb: ExpressionBuilder<Database, "listings">) => Expression<SqlBool>,
  sort: BrowseFilters["sort"],
  nearestFrom: DistanceOrigin | null,
  now: string,
): Promise<number[]> {
  const doubted = await doubtedIds(db, now);
  if (doubted.length === 0) return [];
  const query = db.selectFrom("listings").select("listings.id").where("listings.id", "in", doubted).where(matches);
  const rows = await inPageOrder(query, sort, nearestFrom).execute();
  return rows.map((r) => r.id);
}

/**
 * A page's order outside a text search: by price when asked (by distance for
 * 'Nearest first', whose pages come ring by ring: nearestIds), newest first to
 * break ties. The sunk listings follow the others in this same order (ADR 059).
 */
function inPageOrder<O>(
  query: SelectQueryBuilder<Database, "listings", O>,
  sort: BrowseFilters["sort"],
  nearestFrom: DistanceOrigin | null = null,
): SelectQueryBuilder<Database, "listings", O> {
  let ordered = query;
  if (sort === "price_asc") ordered = ordered.orderBy("listings.price", "asc");
  else if (sort === "price_desc") ordered = ordered.orderBy("listings.price", "desc");
  else if (nearestFrom) ordered = ordered.orderBy(distanceSquared(searchArea(nearestFrom, 0)));
  return ordered.orderBy("listings.createdAt", "desc").orderBy("listings.id", "desc");
}

/** The listings of a page, in the order of `ids`. */
async function summaries(db: DB, ids: number[], now: Date): Promise<ListingSummary[]> {
  if (ids.length === 0) return [];
  const [rows, photos] = await Promise.all([
    listingsWithChecks(db, now).where("listings.id", "in", ids).execute(),
    photosFor(db, ids),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => toSummary(byId.get(id)!, photos.get(id) ?? [], now));
}

/** Up to this many matches, 'Nearest first' sorts them all at once; more are found ring by ring. */
const NEAREST_AT_ONCE = 1_000;
/** The first ring's radius in km; each next ring doubles it. */
const FIRST_RING_KM = 1;
/** Past this radius a ring holds the whole island (about 435 km end to end), so it needs no area. */
const WHOLE_ISLAND_KM = 256;

/**
 * 'Nearest first' (ADR 050): the page's listings by distance from
 * the origin, ties newest first. Many matches are read ring by ring, each
 * twice as wide, until a ring holds every listing up to this page: those are
 * then the nearest, since everything outside the ring is farther. Each ring
 * is a few lookups on the place index, so a page near a busy campus reads
 * the listings around it, not all of the university's.
 */
async function nearestIds(
  db: DB,
  matches: (eb: ExpressionBuilder<Database, "listings">) => Expression<SqlBool>,
  origin: DistanceOrigin,
  options: { within: number | undefined; few: boolean; offset: number; limit: number },
): Promise<number[]> {
  const needed = options.offset + options.limit;
  const farthest = options.within ?? WHOLE_ISLAND_KM;
  let km = options.few ? farthest : Math.min(FIRST_RING_KM, farthest);
  for (;;) {
    const area = searchArea(origin, km);
    let query = db.selectFrom("listings").select("listings.id").where(matches);
    // Without 'Within', the widest ring is the whole island: no area to check.
    if (km < WHOLE_ISLAND_KM) query = query.where((eb) => insideArea(db, eb, area, "planner"));
    const rows = await query
      .orderBy(distanceSquared(area))
      .orderBy("listings.createdAt", "desc")
      .orderBy("listings.id", "desc")
      .limit(needed)
      .execute();
    if (rows.length >= needed || km >= farthest) return rows.slice(options.offset).map((r) => r.id);
    km = Math.min(farthest, km * 2);
  }
}

/**
 * How many listings match, counting no further than one past the bound. A
 * location is counted first from its own trigram matches, which stop at the
 * bound when the place is common (at 1,000,000 listings 'morat' is in 120,000
 * locations, and collecting them all took 24 ms); only a rarer one needs the
 * full condition, its city names included (ADR 011).
 */
async function countMatches(db: DB, filters: BrowseFilters, now: string, countLimit: number): Promise<number> {
  const matching = (from: BrowseFilters) => (eb: ExpressionBuilder<Database, "listings">) =>
    eb.and(filterConditions(db, eb, from, now, "planner"));
  const restrictToLocation = filters.location ? locationRestriction(db, filters.location) : null;
  if (restrictToLocation) {
    const { location: _location, ...others } = filters;
    const inLocation = await countRows(
      db,
      restrictToLocation(db.selectFrom("listings").select("listings.id"))
        .where(matching(others))
        .limit(countLimit + 1),
    );
    if (inLocation > countLimit) return inLocation;
  }
  return countRows(
    db,
    db
      .selectFrom("listings")
      .select("listings.id")
      .where(matching(filters))
      .limit(countLimit + 1),
  );
}

/** The same key for the same filters whatever order their fields were set in. */
function countKey(filters: BrowseFilters, countLimit: number): string {
  const fields = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `matches:${countLimit}:${JSON.stringify(fields)}`;
}

async function countRows(db: DB, query: SelectQueryBuilder<Database, "listings", { id: number }>): Promise<number> {
  const row = await db
    .selectFrom(query.as("q"))
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
