import fc from "fast-check";
import { it } from "vitest";
import * as apiListings from "../../app/routes/api.listings";
import * as apiListing from "../../app/routes/api.listings.$idOrSlug";
import * as updateViewCount from "../../app/routes/api.update-view-count";
import * as browse from "../../app/routes/browse";
import * as listingPage from "../../app/routes/listing";
import * as photoViewer from "../../app/routes/listing.photos";
import * as report from "../../app/routes/listing.report";
import { BIG_IDS, call, expectNo5xx, fuzzFixtures, get, type Handler, post, settingsFor, text } from "../fuzz";
import { TEST_SITE } from "../request-context";
import { describeEachDatabase } from "../test-db";

describeEachDatabase("fuzz: hostile URLs and API input never break the server", (ctx) => {
  const { ready: fx, context } = fuzzFixtures(ctx);

  // ------------------------------------------------------------ API and pages

  /** Query strings with hostile values under the names the endpoints read, repeated at times. */
  const query = fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(
            "search",
            "q",
            "university",
            "city",
            "location",
            "propertyType",
            "gender",
            "minPrice",
            "maxPrice",
            "amenities",
            "sort",
            "page",
            "limit",
            "offset",
            "status",
            "reason",
          ),
          fc.string({ maxLength: 8 }),
        ),
        text,
      ),
      { maxLength: 6 },
    )
    .map((pairs) => new URLSearchParams(pairs).toString());

  it("/api/listings and its aliases", async () => {
    await fc.assert(
      fc.asyncProperty(query, fc.option(text, { nil: undefined }), async (q, university) => {
        const params = university === undefined ? {} : { university };
        const outcome = await call(apiListings.loader as Handler, get(`/api/listings?${q}`), context(), params);
        expectNo5xx(outcome, `api listings ?${q}`);
        expectNo5xx(
          await call(apiListings.action as Handler, post("/api/listings", new URLSearchParams(q)), context()),
          "api listings POST",
        );
      }),
      settingsFor(40),
    );
  });

  it("/api/listings/:idOrSlug", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(text, fc.constantFrom(String(fx().listing?.id), "1", "0", "-1", "9007199254740993", ...BIG_IDS)),
        async (idOrSlug) => {
          expectNo5xx(
            await call(apiListing.loader as Handler, get(`/api/listings/x`), context(), { idOrSlug }),
            `api listing ${idOrSlug.slice(0, 40)}`,
          );
        },
      ),
      { ...settingsFor(40), examples: [...BIG_IDS, `room-${BIG_IDS[1]}`].map((id) => [id] as [string]) },
    );
  });

  it("/listing/:slug with any slug", async () => {
    const slugs = fc.oneof(
      text,
      fc.constantFrom(fx().listing?.slug ?? "x", `x-${fx().listing?.id}`, "x-0", "x--1", "-1"),
      text.map((t) => `${t}-${fx().listing?.id}`),
    );
    await fc.assert(
      fc.asyncProperty(slugs, async (slug) => {
        expectNo5xx(
          await call(listingPage.loader as Handler, get(`/listing/${encodeURIComponent(slug)}`), context(), { slug }),
          `listing ${slug.slice(0, 40)}`,
        );
        expectNo5xx(
          await call(report.loader as Handler, get(`/listing/${encodeURIComponent(slug)}/report`), context(), { slug }),
          `report page ${slug.slice(0, 40)}`,
        );
        expectNo5xx(
          await call(photoViewer.loader as Handler, get(`/listing/${encodeURIComponent(slug)}/photos`), context(), {
            slug,
          }),
          `photo viewer ${slug.slice(0, 40)}`,
        );
      }),
      { ...settingsFor(40), examples: BIG_IDS.map((id) => [`room-${id}`] as [string]) },
    );
  });

  it("/updateViewCount with any body", async () => {
    const json = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({
          adId: fc.oneof(
            fc.jsonValue(),
            text,
            fc.constant(fx().listing?.id),
            fc.constantFrom(...BIG_IDS),
            fc.constant(Number(BIG_IDS[1])),
          ),
        })
        .map((v) => JSON.stringify(v)),
      text,
    );
    await fc.assert(
      fc.asyncProperty(
        json,
        fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded"),
        async (payload, type) => {
          const request = new Request(`${TEST_SITE}/updateViewCount`, {
            method: "POST",
            body: payload,
            headers: { "content-type": type, origin: TEST_SITE, "user-agent": "Mozilla/5.0" },
          });
          expectNo5xx(await call(updateViewCount.action as Handler, request, context()), "updateViewCount");
        },
      ),
      {
        ...settingsFor(40),
        examples: BIG_IDS.map((id) => [JSON.stringify({ adId: id }), "application/json"] as [string, string]),
      },
    );
  });

  it("/browse and the location pages with any search parameters", async () => {
    const pathParams = fc.record({ location: text, university: text, city: text }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(query, pathParams, async (q, params) => {
        expectNo5xx(await call(browse.loader as Handler, get(`/browse?${q}`), context(), params), `browse ?${q}`);
      }),
      settingsFor(40),
    );
  });
});
