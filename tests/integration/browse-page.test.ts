import { beforeAll, expect, it } from "vitest";
import { formatShortDate } from "../../app/lib/format";
import { insertListing } from "../../app/models/listing.server";
import { type BrowsePage, loadBrowsePage } from "../../app/pages/browse-page.server";
import type { PathFilters } from "../../app/schemas/browse-filters";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

// The browse page's texts, links and head tags are worked out by its loader
// (so the browser needs no filter code): checked here against a small data set.

const SITE = { siteName: "Bodima", siteUrl: "https://bodima.example" };
const UOM = "University of Moratuwa";
const owner = { id: "browse-page-owner", email: "owner@example.com" };
// Listings stay public for 30 days after creation: made two days ago, an hour apart.
const START = Date.now() - 2 * 24 * 3_600_000;
const NEWEST_CREATED = new Date(START + 11 * 3_600_000);

describeEachDatabase("browse page loader", (ctx) => {
  beforeAll(async () => {
    const { db } = ctx();
    const created = new Date(START).toISOString();
    await insertTestOwner(db, owner.id, { email: owner.email, createdAt: created });
    // 12 single rooms at Moratuwa (two pages), the newest with key money and a faculty.
    for (let i = 0; i < 12; i++) {
      const newest = i === 11;
      await insertListing(
        db,
        owner,
        listingInput({
          title: `Moratuwa room ${i + 1}`,
          price: 15000 + i,
          keymoneyFee: newest ? 30000 : null,
          faculty: newest ? "Faculty of Engineering" : "Main Campus",
        }),
        new Date(START + i * 3_600_000),
      );
    }
    await insertListing(
      db,
      owner,
      listingInput({
        title: "Kandy shared room",
        university: "University of Peradeniya",
        city: "kandy",
        propertyType: "shared",
      }),
    );
  });

  const load = (path: string, params: PathFilters = {}): Promise<BrowsePage> =>
    loadBrowsePage(ctx().db, new URL(path, SITE.siteUrl), params, SITE);
  /** The faculty select's choices after 'All Faculties', or null when the form has none. */
  const faculties = (page: BrowsePage) =>
    page.filterForm.upper.find((select) => select.name === "faculty")?.choices.slice(1) ?? null;

  it("writes the heading, the counts and the head tags", async () => {
    const page = await load("/browse");
    expect(page.heading).toBe("Browse boarding places");
    expect(page.found).toBe("13 boarding places found");
    expect(page.pageOf).toBe("Page 1 of 2");
    expect(page.meta).toContainEqual({ title: "Browse boarding places | Bodima" });
    expect(page.meta).toContainEqual({ tagName: "link", rel: "canonical", href: "https://bodima.example/browse" });
    expect(page.meta.some((m) => "name" in m && m.name === "robots")).toBe(false);
  });

  it("turns a university path into a heading, a canonical address and breadcrumbs", async () => {
    const page = await load("/university/UOM", { university: "UOM" });
    expect(page.heading).toBe(`Boarding places near ${UOM}`);
    expect(page.found).toBe("12 boarding places found");
    expect(page.meta).toContainEqual({
      tagName: "link",
      rel: "canonical",
      href: "https://bodima.example/university/university-of-moratuwa",
    });
    const description = page.meta.find((m) => "name" in m && m.name === "description");
    expect(description).toMatchObject({
      content: expect.stringMatching(/^12 boarding places near University of Moratuwa/),
    });
    const jsonLd = page.meta.find((m) => "script:ld+json" in m) as {
      "script:ld+json": { itemListElement: { name: string }[] };
    };
    expect(jsonLd["script:ld+json"].itemListElement.map((i) => i.name)).toEqual(["Home", "Browse", UOM]);
    expect(page.form.university).toBe(UOM);
    expect(page.fromPath).toEqual({ university: true, location: false, city: false });
    // The English name is the value; the label is in the reader's language (English here).
    const same = (name: string) => ({ value: name, label: name });
    expect(faculties(page)).toEqual([same("Main Campus")]);
    expect(faculties(await load("/browse?university=USJ"))).toEqual([
      same("Main Campus"),
      same("Faculty of Engineering (current)"),
      same("Faculty of Engineering (new)"),
    ]);
    expect(faculties(await load("/browse"))).toBeNull();
  });

  it("links the pages relative to the route, leaving out what the path says", async () => {
    const page = await load("/university/UOM?propertyType=single&page=2", { university: "UOM" });
    expect(page.pageOf).toBe("Page 2 of 2");
    expect(page.pages).toEqual({
      page: 2,
      first: "?propertyType=single",
      previous: "?propertyType=single",
      next: null,
      last: null,
      pages: [
        { page: 1, href: "?propertyType=single" },
        { page: 2, href: "?propertyType=single&page=2" },
      ],
    });
    expect((await load("/browse")).pages).toMatchObject({
      first: null,
      next: "?page=2",
      pages: [{ page: 1, href: "." }, { page: 2 }],
    });
    expect((await load("/browse?university=Kandy+nowhere")).pages).toBeNull();
  });

  it("offers a way back from past the last page", async () => {
    const page = await load("/browse?page=9");
    expect(page.pageOf).toBeNull();
    expect(page.firstPageHref).toBe(".");
    expect(page.pages).toMatchObject({ previous: "?page=2", next: null });
    expect(page.meta).toContainEqual({ name: "robots", content: "noindex" });
  });

  it("makes one removable chip per filter, each a link to the results without it", async () => {
    const page = await load(
      "/browse?university=USJ&faculty=usj-engineering-new&minPrice=15000&gender=female&search=quiet",
    );
    const usj = "University+of+Sri+Jayewardenepura";
    const faculty = "Faculty+of+Engineering+%28new%29";
    expect(page.chips).toEqual([
      {
        key: "search",
        label: "“quiet”",
        href: `/browse?university=${usj}&faculty=${faculty}&minPrice=15000&gender=female`,
      },
      // A faculty goes with its university.
      {
        key: "university",
        label: "University of Sri Jayewardenepura",
        href: "/browse?search=quiet&minPrice=15000&gender=female",
      },
      {
        key: "faculty",
        label: "Faculty of Engineering (new)",
        href: `/browse?search=quiet&university=${usj}&minPrice=15000&gender=female`,
      },
      {
        key: "minPrice",
        label: "From LKR 15,000",
        href: `/browse?search=quiet&university=${usj}&faculty=${faculty}&gender=female`,
      },
      {
        key: "gender",
        label: "Female Only",
        href: `/browse?search=quiet&university=${usj}&faculty=${faculty}&minPrice=15000`,
      },
    ]);
    expect(page.activeLabel).toBe("5 active");
    expect((await load("/browse")).activeLabel).toBeNull();
  });

  it("says which values of the link it ignored", async () => {
    const page = await load("/browse?minPrice=abc&propertyType=castle");
    expect(page.notice).toBe(
      "These values could not be used: minimum price, property type. The results below leave them out.",
    );
    expect(page.found).toBe("13 boarding places found");
  });

  it("sends cards with their texts written and without description or phone", async () => {
    const [card] = (await load("/university/UOM", { university: "UOM" })).ads;
    expect(card).toMatchObject({
      title: "Moratuwa room 12",
      priceLine: "LKR 15,011/month",
      keymoneyLine: "Key money: LKR 30,000",
      facultyTag: "Faculty of Engineering",
      typeLabel: "Single Room",
      genderLabel: "Any gender preferred",
      postedLine: `Posted ${formatShortDate(NEWEST_CREATED.toISOString())}`,
      viewsLine: "0 views",
      photosBadge: null,
    });
    expect(card).not.toHaveProperty("description");
    expect(card).not.toHaveProperty("contactPhone");
    expect(JSON.stringify(card)).not.toContain("0771234567");
  });

  it("drops a faculty that does not belong to the chosen university", async () => {
    const page = await load("/browse?university=UOM&faculty=Faculty+of+Engineering+%28new%29");
    expect(page.form.faculty).toBe("");
    expect(page.chips.map((c) => c.key)).toEqual(["university"]);
  });
});
