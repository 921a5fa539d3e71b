import { beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { ListingDetailSchema, ListingPageSchema, UniversityDirectorySchema } from "../../app/api/api-schemas";
import { parseListQuery } from "../../app/api/list-query";
import { AD_NOT_FOUND, getAd, getAdResponse, listAds, listAdsResponse } from "../../app/api/listings.server";
import { openApiDocument } from "../../app/api/openapi";
import { robotsTxt } from "../../app/api/robots";
import { universityDirectory } from "../../app/api/universities";
import { insertListing } from "../../app/models/listing.server";
import routes from "../../app/routes";
import type { NewListingInput } from "../../app/schemas/listing-form";
import { listingInput as baseListingInput, insertTestOwner } from "../factories";
import { describeEachDatabase } from "../test-db";

const DAY = 24 * 60 * 60 * 1000;
const SITE = "https://bodima.example";

/** This file's listing: a fuller room than the shared default. */
const listingInput = (overrides: Partial<NewListingInput> = {}): NewListingInput =>
  baseListingInput({
    title: "Quiet single room near campus",
    description: "Bright room with a desk, five minutes' walk to the gate.",
    price: 15000,
    location: "Katubedda",
    amenities: ["WiFi", "AC", "Parking", "Laundry", "Kitchen"],
    contactName: "Mr Perera",
    ...overrides,
  });

describe("parseListQuery", () => {
  it("defaults to page 1 and 20 per page", () => {
    const result = parseListQuery(new URLSearchParams());
    expect(result).toEqual({ ok: true, query: { filters: {}, page: 1, limit: 20 } });
  });

  it("accepts limits from 1 to 50 and the browse filters", () => {
    const result = parseListQuery(
      new URLSearchParams(
        "limit=50&page=3&university=UOM&propertyType=single&gender=female&minPrice=5000&sort=price_asc&q=annex",
      ),
    );
    expect(result).toEqual({
      ok: true,
      query: {
        page: 3,
        limit: 50,
        filters: {
          university: "University of Moratuwa",
          propertyType: "single",
          gender: "female",
          minPrice: 5000,
          sort: "price_asc",
          search: "annex",
        },
      },
    });
    expect(parseListQuery(new URLSearchParams("limit=1"))).toMatchObject({ ok: true, query: { limit: 1 } });
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=51", "limit"],
    ["limit=x", "limit"],
    ["limit=-1", "limit"],
    ["limit=2.5", "limit"],
    ["page=0", "page"],
    ["page=abc", "page"],
    ["minPrice=abc", "minPrice"],
    ["maxPrice=1e5", "maxPrice"],
    ["propertyType=castle", "propertyType"],
    ["gender=x", "gender"],
    ["sort=x", "sort"],
  ])("refuses %s with a message naming %s", (query, param) => {
    const result = parseListQuery(new URLSearchParams(query));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.error).toContain(param);
    expect(result.error.details).toEqual([expect.objectContaining({ param })]);
  });

  it("lists every bad parameter at once", () => {
    const result = parseListQuery(new URLSearchParams("limit=0&gender=x"));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.error).toMatch(/^Invalid query parameters: /);
    expect(result.error.details?.map((d) => d.param).sort()).toEqual(["gender", "limit"]);
  });

  it("uses the first of repeated parameters", () => {
    expect(parseListQuery(new URLSearchParams("limit=5&limit=500&gender=male&gender=x"))).toMatchObject({
      ok: true,
      query: { limit: 5, filters: { gender: "male" } },
    });
  });
});

describeEachDatabase("list and detail API", (ctx) => {
  let ids: {
    moratuwa: { id: number; slug: string }[];
    peradeniya: { id: number; slug: string };
    hidden: { id: number; slug: string };
    expired: { id: number; slug: string };
  };

  beforeAll(async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, "api-owner");
    const base = Date.now() - DAY;
    const moratuwa = [];
    for (let i = 0; i < 22; i++) {
      moratuwa.push(
        await insertListing(
          db,
          owner,
          listingInput({ title: `Moratuwa room ${i}`, price: 10000 + i * 500 }),
          new Date(base + i * 1000),
        ),
      );
    }
    const peradeniya = await insertListing(
      db,
      owner,
      listingInput({
        title: "Peradeniya annex",
        university: "University of Peradeniya",
        city: "kandy",
        location: "Kandy",
        propertyType: "apartment",
        price: 10_000,
        keymoneyFee: 40_000,
        advanceMonths: 3,
        latitude: 7.254321,
        longitude: 80.597654,
      }),
      new Date(base + 30_000),
    );
    const hidden = await insertListing(db, owner, listingInput({ title: "Hidden room" }), new Date(base + 40_000));
    await db.updateTable("listings").set({ status: "hidden" }).where("id", "=", hidden.id).execute();
    const expired = await insertListing(
      db,
      owner,
      listingInput({ title: "Old expired room" }),
      new Date(Date.now() - 40 * DAY),
    );
    ids = { moratuwa, peradeniya, hidden, expired };
  });

  it("pages through public listings, 20 at a time by default, newest first", async () => {
    const { db } = ctx();
    const first = await listAds(db, new URLSearchParams());
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.body.pagination).toEqual({
      page: 1,
      limit: 20,
      total: 23,
      totalPages: 2,
      hasNext: true,
      hasPrev: false,
      totalIsExact: true,
    });
    expect(first.body.ads).toHaveLength(20);
    expect(first.body.ads[0].title).toBe("Peradeniya annex");
    // ADR 047: the move-in terms and their total (40,000 key money + 3 months of 10,000), or null unstated.
    expect(first.body.ads[0]).toMatchObject({ advanceMonths: 3, deposit: null, moveInCost: 70_000 });
    // The position is public only to about 100 m.
    expect(first.body.ads[0]).toMatchObject({ latitude: 7.254, longitude: 80.598 });
    expect(first.body.ads[1]).toMatchObject({ latitude: null, longitude: null });
    expect(first.body.ads[1]).toMatchObject({ advanceMonths: null, deposit: null, moveInCost: null });
    const second = await listAds(db, new URLSearchParams("page=2"));
    if (!second.ok) throw new Error("expected page 2");
    expect(second.body.pagination).toMatchObject({ page: 2, hasNext: false, hasPrev: true });
    expect(second.body.ads).toHaveLength(3);
    const titles = [...first.body.ads, ...second.body.ads].map((a) => a.title);
    expect(new Set(titles).size).toBe(23);
    expect(titles).not.toContain("Hidden room");
    expect(titles).not.toContain("Old expired room");
  });

  it("filters by the maximum move-in cost, leaving out listings that do not state it (ADR 047)", async () => {
    const { db } = ctx();
    const within = await listAds(db, new URLSearchParams("maxMoveIn=70000"));
    expect(within.ok && within.body.ads.map((ad) => ad.title)).toEqual(["Peradeniya annex"]);
    const below = await listAds(db, new URLSearchParams("maxMoveIn=69999"));
    expect(below.ok && below.body.ads).toEqual([]);
    const refused = await listAds(db, new URLSearchParams("maxMoveIn=lots"));
    expect(refused.ok).toBe(false);
  });

  it("filters by distance to the chosen university and orders nearest first (ADR 050)", async () => {
    const { db } = ctx();
    const titles = async (query: string) => {
      const result = await listAds(db, new URLSearchParams(query));
      if (!result.ok) throw new Error(`${query}: ${JSON.stringify(result.body)}`);
      return result.body.ads.map((ad) => ad.title);
    };
    // The annex is pinned about 50 m from Peradeniya's campus.
    expect(await titles("university=UOP&within=1")).toEqual(["Peradeniya annex"]);
    // The Moratuwa rooms have no position: they count from Moratuwa's centre, about 3.2 km from the campus.
    expect(await titles("university=University%20of%20Moratuwa&within=2")).toEqual([]);
    expect(await titles("university=University%20of%20Moratuwa&within=5&limit=50")).toHaveLength(22);
    // Equally far (one centre), nearest first falls back to newest first.
    const nearest = await titles("university=University%20of%20Moratuwa&sort=nearest&limit=3");
    expect(nearest).toEqual(["Moratuwa room 21", "Moratuwa room 20", "Moratuwa room 19"]);
    for (const query of ["within=2", "sort=nearest", "university=Atlantis&within=2", "university=UOP&within=3"]) {
      const refused = await listAds(db, new URLSearchParams(query));
      expect({ query, ok: refused.ok, status: refused.status }).toEqual({ query, ok: false, status: 400 });
    }
  });

  it("documents every field an ad carries and every list parameter (the facts of ADR 051 too)", async () => {
    const doc = openApiDocument(SITE) as unknown as {
      components: { schemas: Record<string, { required: string[]; properties: Record<string, unknown> }> };
    };
    const result = await listAds(ctx().db, new URLSearchParams("limit=1"));
    if (!result.ok) throw new Error("expected ok");
    const fields = Object.keys(result.body.ads[0]).sort();
    expect(Object.keys(doc.components.schemas.ListingSummary.properties).sort()).toEqual(fields);
    expect([...doc.components.schemas.ListingSummary.required].sort()).toEqual(fields);
    expect(fields).toEqual(expect.arrayContaining(["bills", "meals", "bathroom", "bedsFree", "curfew", "cooking"]));
  });

  it("filters by the university in the path (/getAdsByUniversity/UOM)", async () => {
    const { db } = ctx();
    const result = await listAds(db, new URLSearchParams("limit=50"), { university: "UOM" });
    if (!result.ok) throw new Error("expected ok");
    expect(result.body.pagination.total).toBe(22);
    expect(result.body.ads.every((a) => a.university === "University of Moratuwa")).toBe(true);
    const other = await listAds(db, new URLSearchParams(), { university: "university-of-peradeniya" });
    if (!other.ok) throw new Error("expected ok");
    expect(other.body.ads.map((a) => a.slug)).toEqual([ids.peradeniya.slug]);
  });

  it("never puts a phone number in list answers", async () => {
    const { db } = ctx();
    const response = await listAdsResponse(db, new URLSearchParams("limit=50"));
    const text = await response.text();
    expect(text).not.toContain("contactPhone");
    expect(text).not.toMatch(/07\d{8}/);
    expect(text).not.toContain("api-owner");
  });

  it("answers with JSON, a one-minute cache and 400 for bad parameters", async () => {
    const { db } = ctx();
    const ok = await listAdsResponse(db, new URLSearchParams());
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(ok.headers.get("Cache-Control")).toBe("public, max-age=60");
    const bad = await listAdsResponse(db, new URLSearchParams("limit=51"));
    expect(bad.status).toBe(400);
    expect(bad.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await bad.json()).toEqual({
      error: "Invalid query parameter: limit must be a whole number from 1 to 50",
      details: [{ param: "limit", message: "limit must be a whole number from 1 to 50" }],
    });
  });

  it("survives hostile input without throwing", async () => {
    const { db } = ctx();
    const hostile = [
      "search=%27%3B%20drop%20table%20listings%3B--",
      'q=" OR 1=1 --',
      "search=NEAR(a b)*",
      `search=${"x".repeat(5000)}`,
      "university=%00%01",
      "location=%25%25_",
      "page=99999",
      "page=99999999999999999999",
      "minPrice=99999999999999999999",
      "city=../../etc/passwd",
      "faculty=<script>",
    ];
    for (const query of hostile) {
      const result = await listAds(db, new URLSearchParams(query));
      expect([200, 400], query).toContain(result.status);
    }
  });

  it("finds one listing by ad number or slug, without the owner's id", async () => {
    const { db } = ctx();
    const target = ids.moratuwa[3];
    for (const key of [String(target.id), target.slug]) {
      const result = await getAd(db, key);
      if (!result.ok) throw new Error(`expected ${key} to be found`);
      expect(result.body.ad.slug).toBe(target.slug);
      expect(result.body.ad.contactPhone).toBe("0771234567");
      expect(result.body.ad.isExpired).toBe(false);
      expect(result.body.ad).not.toHaveProperty("userId");
    }
  });

  it("says 'Ad not found' for unknown and hidden listings", async () => {
    const { db } = ctx();
    // Numbers past PostgreSQL's integer range name no listing (they used to reach the query: a 500).
    const huge = ["2147483648", "999999999999", "99999999999999999999", "room-999999999999"];
    for (const key of [
      "999999",
      "no-such-listing",
      String(ids.hidden.id),
      ids.hidden.slug,
      "",
      "x".repeat(500),
      ...huge,
    ]) {
      expect(await getAd(db, key)).toEqual({ ok: false, status: 404, body: AD_NOT_FOUND });
    }
    const response = await getAdResponse(db, "999999");
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('{"error":"Ad not found"}');
  });

  it("returns expired listings marked as expired", async () => {
    const { db } = ctx();
    const result = await getAd(db, ids.expired.slug);
    if (!result.ok) throw new Error("expected the expired listing");
    expect(result.body.ad).toMatchObject({ isExpired: true, isPublic: false, title: "Old expired room" });
  });

  it("matches the OpenAPI schemas' property lists", async () => {
    const { db } = ctx();
    const doc = openApiDocument(SITE);
    const list = await listAds(db, new URLSearchParams("limit=1"));
    if (!list.ok) throw new Error("expected ok");
    expect(Object.keys(list.body.ads[0]).sort()).toEqual(
      Object.keys(doc.components.schemas.ListingSummary.properties).sort(),
    );
    expect(Object.keys(list.body.pagination).sort()).toEqual([...doc.components.schemas.Pagination.required].sort());
    const detail = await getAd(db, ids.peradeniya.slug);
    if (!detail.ok) throw new Error("expected ok");
    const [summary, extra] = doc.components.schemas.ListingDetail.allOf as [
      unknown,
      { properties: Record<string, unknown> },
    ];
    expect(summary).toEqual({ $ref: "#/components/schemas/ListingSummary" });
    expect(Object.keys(detail.body.ad).sort()).toEqual(
      [...Object.keys(doc.components.schemas.ListingSummary.properties), ...Object.keys(extra.properties)].sort(),
    );
  });

  it("describes every field the API returns, at every depth, in the served document and its zod schemas", async () => {
    const { db } = ctx();
    const doc = JSON.parse(JSON.stringify(openApiDocument(SITE))) as {
      components: { schemas: Record<string, Schema> };
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>
      >;
    };
    const schemas = doc.components.schemas;
    const bodySchema = (path: string) => doc.paths[path].get.responses["200"].content["application/json"].schema;
    const list = await listAds(db, new URLSearchParams("limit=50"));
    const detail = await getAd(db, ids.peradeniya.slug);
    const expired = await getAd(db, ids.expired.slug);
    if (!list.ok || !detail.ok || !expired.ok) throw new Error("expected ok");
    const photographed = list.body.ads.find((ad) => ad.photos.length > 0);
    expect(list.body.ads.length).toBeGreaterThan(20);
    const answers: [string, unknown][] = [
      ["/api/listings", list.body],
      ["/api/listings/{idOrSlug}", detail.body],
      ["/api/listings/{idOrSlug}", expired.body],
      ["/api/universities", universityDirectory()],
    ];
    for (const [path, body] of answers) {
      expect({ path, undescribed: undescribedFields(body, bodySchema(path), schemas) }).toEqual({
        path,
        undescribed: [],
      });
    }
    // Values too: the zod schemas the document is generated from accept the real answers.
    expect(ListingPageSchema.safeParse(list.body).error?.issues).toBeUndefined();
    expect(z.object({ ad: ListingDetailSchema }).safeParse(detail.body).error?.issues).toBeUndefined();
    expect(UniversityDirectorySchema.safeParse(universityDirectory()).error?.issues).toBeUndefined();
    // A field the document leaves out is caught, so the check above can fail.
    const withExtra = { ...list.body, ads: [{ ...list.body.ads[0], ownerEmail: "a@b.lk" }] };
    expect(undescribedFields(withExtra, bodySchema("/api/listings"), schemas)).toEqual(["$.ads[0].ownerEmail"]);
    if (photographed)
      expect(undescribedFields(photographed.photos, { items: schemas.ListingPhoto }, schemas)).toEqual([]);
  });
});

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
};

/**
 * The paths of every field in `value` that `schema` (with the document's
 * components) does not describe: what a client reading the OpenAPI document
 * would not know about.
 */
function undescribedFields(value: unknown, schema: Schema, schemas: Record<string, Schema>, at = "$"): string[] {
  if (schema.$ref) return undescribedFields(value, schemas[schema.$ref.split("/").pop() ?? ""], schemas, at);
  const parts = [...(schema.allOf ?? []), ...(schema.anyOf ?? [])];
  if (Array.isArray(value)) {
    const items = schema.items ?? parts.find((p) => p.items)?.items;
    if (!items) return [at];
    return value.flatMap((item, i) => undescribedFields(item, items, schemas, `${at}[${i}]`));
  }
  if (value === null || typeof value !== "object") return [];
  const described = new Map<string, Schema>(Object.entries(schema.properties ?? {}));
  for (const part of parts) {
    const resolved = part.$ref ? schemas[part.$ref.split("/").pop() ?? ""] : part;
    for (const [key, sub] of Object.entries(resolved.properties ?? {})) described.set(key, sub);
  }
  return Object.entries(value).flatMap(([key, field]) => {
    const sub = described.get(key);
    return sub ? undescribedFields(field, sub, schemas, `${at}.${key}`) : [`${at}.${key}`];
  });
}

describe("the other JSON and text resources", () => {
  it("serves the university directory with its version and city codes", () => {
    const directory = universityDirectory();
    expect(directory.universities).toHaveLength(15);
    expect(directory.version).toBe("1.0.0");
    expect(directory.lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(directory.cities.map((c) => c.code)).toContain("mattegoda-engineering");
    expect(directory.universities[0].faculties[0]).toHaveProperty("latitude");
  });

  it("describes every API route of routes.ts in the OpenAPI document", () => {
    const doc = openApiDocument(SITE);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: SITE }]);
    const apiPaths = routes
      .map((r) => r.path ?? "")
      .filter((p) => p.startsWith("api/") || /^(getAd|updateViewCount)/.test(p))
      .map((p) => `/${p.replace(/:(\w+)/g, "{$1}")}`);
    expect(apiPaths.length).toBeGreaterThanOrEqual(8);
    expect(Object.keys(doc.paths).sort()).toEqual(apiPaths.sort());
    const refs = JSON.stringify(doc).match(/#\/components\/\w+\/\w+/g) ?? [];
    for (const ref of new Set(refs)) {
      const [, , group, name] = ref.split("/");
      expect((doc.components as Record<string, Record<string, unknown>>)[group][name], ref).toBeDefined();
    }
  });

  it("robots.txt keeps crawlers out of the API and the dashboard and names the sitemap", () => {
    expect(robotsTxt(SITE)).toBe(
      `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /dashboard\nDisallow: /si/dashboard\nDisallow: /ta/dashboard\nDisallow: /language/\n\nSitemap: ${SITE}/sitemap.xml\n`,
    );
  });
});
