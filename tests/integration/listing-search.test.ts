import { beforeAll, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { insertListing } from "../../app/models/listing.server";
import { searchListings } from "../../app/models/listing-search.server";
import type { BrowseFilters } from "../../app/schemas/browse-filters";
import type { NewListingInput } from "../../app/schemas/listing-form";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

const NOW = new Date("2026-12-01T12:00:00.000Z");
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const owner = { id: "search-owner", email: "owner@example.com" };

const input = (overrides: Partial<NewListingInput>): NewListingInput =>
  listingInput({ university: "University of Colombo", city: "colombo", ...overrides });

/** Fixtures by name; `hoursAgo` sets the creation time (so "newest" is known). */
const FIXTURES: Record<string, { hoursAgo: number; listing: NewListingInput }> = {
  sunny: {
    hoursAgo: 1,
    listing: input({
      title: "Sunny single room",
      description: "Bright room close to the engineering faculty.",
      price: 15000,
      keymoneyFee: 30000,
      location: "Katubedda, Moratuwa",
      university: "University of Moratuwa",
      city: "moratuwa",
      propertyType: "single",
      gender: "male",
    }),
  },
  kandyShared: {
    hoursAgo: 2,
    listing: input({
      title: "Shared room for girls in Kandy",
      description: "Two beds, shared kitchen.",
      price: 8000,
      location: "Peradeniya Road, KANDY",
      university: "University of Peradeniya",
      city: "kandy",
      propertyType: "shared",
      gender: "female",
    }),
  },
  colomboApartment: {
    hoursAgo: 3,
    listing: input({
      title: "Modern apartment in Colombo 7",
      description: "Furnished two-bedroom apartment.",
      price: 45000,
      location: "https://maps.google.com/?q=Colombo+7",
      university: "University of Colombo",
      city: "colombo",
      propertyType: "apartment",
      gender: "any",
    }),
  },
  budgetHostel: {
    hoursAgo: 4,
    listing: input({
      title: "Budget hostel bed",
      description: "Cheapest beds near the Moratuwa campus.",
      price: 5000,
      location: "100% safe area_Lakshapathiya",
      university: "University of Moratuwa",
      city: "moratuwa",
      propertyType: "hostel",
      gender: "any",
    }),
  },
  jaffnaAnnex: {
    hoursAgo: 5,
    listing: input({
      title: "Quiet annex",
      description: "Annex with a private bathroom.",
      price: 12000,
      location: null,
      university: "University of Jaffna",
      city: "jaffna",
      propertyType: "single",
      gender: "female",
    }),
  },
  mattegoda: {
    hoursAgo: 6,
    listing: input({
      title: "Room near the new engineering faculty",
      description: "Walk to the Mattegoda faculty.",
      price: 20000,
      location: "Mattegoda",
      university: "University of Sri Jayewardenepura",
      faculty: "Faculty of Engineering (new)",
      city: "mattegoda-engineering",
      propertyType: "shared",
      gender: "male",
    }),
  },
  // Relevance: 'zebracrossing' three times here, once in the newer listing below.
  relevantOlder: {
    hoursAgo: 8,
    listing: input({
      title: "Zebracrossing house, zebracrossing view",
      description: "Right at the zebracrossing.",
      price: 11000,
      university: "University of Kelaniya",
      city: "kelaniya",
    }),
  },
  relevantNewer: {
    hoursAgo: 7,
    listing: input({
      title: "Plain room",
      description: "Five minutes from the zebracrossing and the shops.",
      price: 11000,
      university: "University of Kelaniya",
      city: "kelaniya",
    }),
  },
};

/** Never listed publicly: expired, pending, hidden, or past expiresAt while still 'active'. */
const NOT_PUBLIC = ["Expired moratuwa room", "Pending moratuwa room", "Hidden moratuwa room", "Lapsed moratuwa room"];

/** Enough listings at one university for three pages of 10. */
const PAGED_UNIVERSITY = "Sabaragamuwa University of Sri Lanka";
const PAGED_COUNT = 23;

async function seed(db: DB): Promise<Map<string, number>> {
  const created = NOW.toISOString();
  await insertTestOwner(db, owner.id, { email: owner.email, createdAt: created });
  const ids = new Map<string, number>();
  for (const [name, { hoursAgo, listing }] of Object.entries(FIXTURES)) {
    const { id } = await insertListing(db, owner, listing, new Date(NOW.getTime() - hoursAgo * HOUR));
    ids.set(name, id);
  }
  const [expired, pending, hidden, lapsed] = NOT_PUBLIC;
  const moratuwa = {
    university: "University of Moratuwa",
    city: "moratuwa",
    location: "Moratuwa",
    propertyType: "single" as const,
    price: 9000,
  };
  for (const title of [expired, pending, hidden]) {
    const { id } = await insertListing(db, owner, input({ ...moratuwa, title }), new Date(NOW.getTime() - HOUR));
    const status = title === expired ? "expired" : title === pending ? "pending" : "hidden";
    await db.updateTable("listings").set({ status }).where("id", "=", id).execute();
  }
  // Created 40 days ago: its 30 days ran out although its status still says active.
  await insertListing(db, owner, input({ ...moratuwa, title: lapsed }), new Date(NOW.getTime() - 40 * DAY));

  for (let i = 0; i < PAGED_COUNT; i++) {
    await insertListing(
      db,
      owner,
      input({ title: `Paged room ${i}`, university: PAGED_UNIVERSITY, city: "belihuloya", price: 6000 + i * 100 }),
      new Date(NOW.getTime() - (100 + i) * HOUR),
    );
  }
  return ids;
}

describeEachDatabase("searchListings", (ctx) => {
  let ids: Map<string, number>;

  beforeAll(async () => {
    ids = await seed(ctx().db);
  });

  async function search(filters: BrowseFilters, page = 1, limit = 50) {
    return searchListings(ctx().db, filters, { page, limit, now: NOW });
  }

  /** Fixture names found (paged filler left out), in result order. */
  async function names(filters: BrowseFilters): Promise<string[]> {
    const { ads } = await search(filters);
    const byId = new Map([...ids].map(([name, id]) => [String(id), name]));
    return ads.map((ad) => byId.get(ad.id) ?? ad.title).filter((n) => !n.startsWith("Paged room"));
  }

  function sorted(list: string[]): string[] {
    return [...list].sort();
  }

  it("lists every public listing and counts them exactly", async () => {
    const { ads, pagination } = await search({}, 1, 100);
    expect(pagination.total).toBe(Object.keys(FIXTURES).length + PAGED_COUNT);
    expect(ads).toHaveLength(pagination.total);
  });

  it("leaves out expired, pending, hidden and lapsed listings", async () => {
    const { ads } = await search({}, 1, 100);
    const titles = ads.map((ad) => ad.title);
    for (const title of NOT_PUBLIC) expect(titles).not.toContain(title);
    expect(await names({ search: "moratuwa room", university: "University of Moratuwa" })).toEqual(["sunny"]);
  });

  it("never includes the owner's phone number in a result", async () => {
    const { ads } = await search({ university: "University of Moratuwa" });
    expect(ads.length).toBeGreaterThan(0);
    for (const ad of ads) expect(JSON.stringify(ad)).not.toContain("0771234567");
  });

  it("filters by university, faculty and city", async () => {
    expect(sorted(await names({ university: "University of Moratuwa" }))).toEqual(["budgetHostel", "sunny"]);
    expect(
      await names({ university: "University of Sri Jayewardenepura", faculty: "Faculty of Engineering (new)" }),
    ).toEqual(["mattegoda"]);
    expect(await names({ university: "University of Sri Jayewardenepura", faculty: "Main Campus" })).toEqual([]);
    expect(await names({ city: "kandy" })).toEqual(["kandyShared"]);
    expect(await names({ university: "University of Nowhere" })).toEqual([]);
  });

  it("filters by property type", async () => {
    expect(sorted(await names({ propertyType: "single" }))).toEqual(
      sorted(["sunny", "jaffnaAnnex", "relevantOlder", "relevantNewer"]),
    );
    expect(await names({ propertyType: "hostel" })).toEqual(["budgetHostel"]);
    expect(await names({ propertyType: "apartment" })).toEqual(["colomboApartment"]);
  });

  it("treats listings for any gender as matching every gender filter", async () => {
    const female = await names({ gender: "female", university: "University of Moratuwa" });
    expect(female).toEqual(["budgetHostel"]);
    const male = sorted(await names({ gender: "male", university: "University of Moratuwa" }));
    expect(male).toEqual(["budgetHostel", "sunny"]);
    expect(await names({ gender: "female", propertyType: "shared" })).toEqual(["kandyShared"]);
  });

  it("filters by price range, both ends included", async () => {
    const { ads } = await search({ minPrice: 8000, maxPrice: 15000 }, 1, 100);
    expect(ads.length).toBeGreaterThan(0);
    for (const ad of ads) {
      expect(ad.price).toBeGreaterThanOrEqual(8000);
      expect(ad.price).toBeLessThanOrEqual(15000);
    }
    const found = await names({ minPrice: 8000, maxPrice: 15000 });
    expect(found).toContain("kandyShared"); // exactly 8,000
    expect(found).toContain("sunny"); // exactly 15,000
    expect(await names({ minPrice: 40000 })).toEqual(["colomboApartment"]);
    expect(await names({ maxPrice: 5000 })).toEqual(["budgetHostel"]);
    expect(await names({ minPrice: 20000, maxPrice: 10000 })).toEqual([]);
  });

  it("matches the location as a case-insensitive substring", async () => {
    expect(await names({ location: "katubedda" })).toEqual(["sunny"]);
    expect(await names({ location: "peradeniya road, kandy" })).toEqual(["kandyShared"]);
    expect(await names({ location: "LAKSHAPATHIYA" })).toEqual(["budgetHostel"]);
  });

  it("treats LIKE wildcards in the location literally", async () => {
    expect(await names({ location: "%" })).toEqual(["budgetHostel"]);
    expect(await names({ location: "100%" })).toEqual(["budgetHostel"]);
    expect(await names({ location: "_" })).toEqual(["budgetHostel"]);
    expect(await names({ location: "a_l" })).toEqual(["budgetHostel"]);
    expect(await names({ location: "a%e" })).toEqual([]);
    expect(await names({ location: "\\" })).toEqual([]);
  });

  it("also finds listings in the city a location names (a map link has no words to match)", async () => {
    expect(await names({ location: "Colombo" })).toEqual(["colomboApartment"]);
  });

  it("matches search words as prefixes ('morat' finds Moratuwa)", async () => {
    expect(sorted(await names({ search: "morat" }))).toEqual(["budgetHostel", "sunny"]);
    expect(await names({ search: "MATTEG" })).toEqual(["mattegoda"]);
  });

  it("needs every search word to match", async () => {
    expect(await names({ search: "sunny morat" })).toEqual(["sunny"]);
    expect(await names({ search: "sunny kandy" })).toEqual([]);
  });

  it("searches title, description, location, university and faculty", async () => {
    expect(await names({ search: "girls" })).toEqual(["kandyShared"]); // title
    expect(await names({ search: "bathroom" })).toEqual(["jaffnaAnnex"]); // description
    expect(await names({ search: "lakshapathiya" })).toEqual(["budgetHostel"]); // location
    expect(await names({ search: "jaffna" })).toEqual(["jaffnaAnnex"]); // university
    expect(await names({ search: "engineering (new)" })).toEqual(["mattegoda"]); // faculty and title
  });

  it("orders search results by relevance unless another order is chosen", async () => {
    expect(await names({ search: "zebracrossing" })).toEqual(["relevantOlder", "relevantNewer"]);
    expect(await names({ search: "zebracrossing", sort: "relevance" })).toEqual(["relevantOlder", "relevantNewer"]);
    expect(await names({ search: "zebracrossing", sort: "newest" })).toEqual(["relevantNewer", "relevantOlder"]);
  });

  it("orders by newest first by default", async () => {
    expect(await names({})).toEqual([
      "sunny",
      "kandyShared",
      "colomboApartment",
      "budgetHostel",
      "jaffnaAnnex",
      "mattegoda",
      "relevantNewer",
      "relevantOlder",
    ]);
    // 'relevance' without search text falls back to newest.
    expect(await names({ sort: "relevance" })).toEqual(await names({}));
  });

  it("orders by price, low to high and high to low, newest first among equal prices", async () => {
    const { ads: asc } = await search({ sort: "price_asc" }, 1, 100);
    const ascPrices = asc.map((ad) => ad.price);
    expect(ascPrices).toEqual([...ascPrices].sort((a, b) => a - b));
    const { ads: desc } = await search({ sort: "price_desc" }, 1, 100);
    const descPrices = desc.map((ad) => ad.price);
    expect(descPrices).toEqual([...descPrices].sort((a, b) => b - a));
    expect(await names({ sort: "price_asc", university: "University of Kelaniya" })).toEqual([
      "relevantNewer",
      "relevantOlder",
    ]);
  });

  it("pages exactly over more than one page, without repeats", async () => {
    const filters: BrowseFilters = { university: PAGED_UNIVERSITY };
    const pages = await Promise.all(
      [1, 2, 3].map((page) => searchListings(ctx().db, filters, { page, limit: 10, now: NOW })),
    );
    expect(pages.map((p) => p.ads.length)).toEqual([10, 10, 3]);
    expect(pages[0].pagination).toEqual({
      page: 1,
      limit: 10,
      total: PAGED_COUNT,
      totalPages: 3,
      hasNext: true,
      hasPrev: false,
      totalIsExact: true,
    });
    expect(pages[2].pagination).toMatchObject({ page: 3, hasNext: false, hasPrev: true });
    const all = pages.flatMap((p) => p.ads.map((ad) => ad.title));
    expect(new Set(all).size).toBe(PAGED_COUNT);
    // Newest first across pages: 'Paged room 0' is the newest.
    expect(all[0]).toBe("Paged room 0");
    expect(all[PAGED_COUNT - 1]).toBe(`Paged room ${PAGED_COUNT - 1}`);
  });

  it("answers a page past the end with no listings but the real totals", async () => {
    const { ads, pagination } = await searchListings(
      ctx().db,
      { university: PAGED_UNIVERSITY },
      { page: 9, limit: 10, now: NOW },
    );
    expect(ads).toEqual([]);
    expect(pagination).toMatchObject({ page: 9, total: PAGED_COUNT, totalPages: 3, hasNext: false, hasPrev: true });
  });

  it("returns photos with each listing (none here) and the city's display name", async () => {
    const { ads } = await search({ city: "mattegoda-engineering" });
    expect(ads[0]).toMatchObject({
      photos: [],
      images: [],
      cityName: "Mattegoda",
      faculty: "Faculty of Engineering (new)",
    });
  });

  it.each([
    `"`,
    `'`,
    `"unbalanced`,
    `O'Reilly's room`,
    `room)`,
    `(room`,
    `NEAR(room bed)`,
    `room NEAR bed`,
    `room AND bed`,
    `room OR bed`,
    `NOT room`,
    `*`,
    `room*`,
    `^room`,
    `title:room`,
    `-room`,
    `room & bed | !x`,
    `room:*`,
    `<->`,
    `'; drop table listings; --`,
    `\\`,
    `%_%`,
    `ක කාමරය`,
    `அறை`,
    "a".repeat(200),
    "one two three four five six seven eight nine ten",
  ])("does not throw on hostile search text %j", async (text) => {
    const result = await search({ search: text });
    expect(result.pagination.total).toBeGreaterThanOrEqual(0);
  });

  it("treats search operators as plain words", async () => {
    // 'AND' and 'NEAR' are words to find, not operators: nothing contains them.
    expect(await names({ search: "sunny AND room" })).toEqual([]);
    expect(await names({ search: "sunny NEAR room" })).toEqual([]);
    expect(await names({ search: `"sunny" (room)` })).toEqual(["sunny"]);
  });
});
