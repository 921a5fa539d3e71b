import { renderToString } from "react-dom/server";
import { createRoutesStub, Meta } from "react-router";
import { describe, expect, it } from "vitest";
import { listingMeta, listingNotFoundMeta } from "~/pages/listing-page.server";
import type { ListingView } from "~/schemas/listing-view";
import ListingPage, { meta } from "./listing";

const SITE = { siteName: "Bodima", siteUrl: "https://bodima.example" };

function listing(overrides: Partial<ListingView> = {}): ListingView {
  return {
    adNumber: "1042",
    slug: "quiet-room-1042",
    title: "Quiet room",
    description: "A bright room.\nFive minutes to the gate.",
    price: 15000,
    keymoneyFee: 30000,
    location: "Katubedda",
    university: "University of Moratuwa",
    universityLabel: "University of Moratuwa",
    faculty: "Main Campus",
    cityName: "Moratuwa",
    cityLabel: "Moratuwa",
    propertyType: "single",
    gender: "any",
    amenities: ["WiFi"],
    photos: [
      {
        id: "p1",
        alt: "Quiet room – photo 1",
        width: 1200,
        height: 900,
        url: "/photos/p1-1200.webp",
        srcSet: "/photos/p1-400.webp 400w, /photos/p1-1200.webp 1200w",
        variants: [],
      },
    ],
    views: 3,
    createdAt: "2026-11-22T08:00:00.000Z",
    contactName: "Mr Perera",
    contactPhone: "0771234567",
    chatLinks: [],
    isExpired: false,
    isLet: false,
    availabilityUnconfirmed: false,
    confirmedLine: "Availability confirmed 2 days ago",
    notice: null,
    safety: {
      heading: "Stay safe when renting",
      intro: "Before you pay anything:",
      items: ["Visit the place yourself."],
      disclaimer: "Bodima is not responsible for transactions between users.",
    },
    priceLine: "LKR 15,000/month",
    keymoneyLine: "Key money: LKR 30,000",
    moveInLine: null,
    typicalRentLine: null,
    distanceLine: null,
    facts: { lines: [{ kind: "bills", text: "Bills: included in the rent" }], rules: ["No visitors"], notStated: null },
    checks: {
      heading: "What Bodima checked",
      lines: ["Phone number confirmed by SMS on 12 Nov 2026", "Email address confirmed"],
      notChecked: "Nobody from Bodima has visited this place or met the owner.",
    },
    postedText: "Nov 22, 2026",
    viewsLine: "3 views",
    typeLabel: "Single Room",
    genderLabel: "Any Gender",
    facultyTag: null,
    phoneHref: "tel:0771234567",
    callPing: "/listing/test/contact/call",
    locationLink: {
      href: "https://www.google.com/maps/search/?api=1&query=Katubedda",
      label: "Katubedda",
      kind: "search",
    },
    textLanguage: "en",
    titleLang: null,
    descriptionLang: null,
    ...overrides,
  };
}

/** The <head> tags React Router renders from the route's meta export, given the loader's meta. */
function renderHead(loaderData: unknown): string {
  const Stub = createRoutesStub([
    { id: "routes/listing", path: "/listing/:slug", meta: meta as never, Component: () => <Meta /> },
  ]);
  return renderToString(
    <Stub
      initialEntries={["/listing/quiet-room-1042"]}
      hydrationData={{ loaderData: { "routes/listing": loaderData } }}
    />,
  );
}

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));
}

describe("listing page meta", () => {
  it("gives the title, a 120-character description, the canonical URL and Open Graph tags", () => {
    const description = `${"Line one.\n".repeat(20)}end`;
    const html = renderHead({ meta: listingMeta(SITE, listing({ description })) });
    expect(html).toContain("<title>Quiet room | Bodima</title>");
    const expected = description.replace(/\s+/g, " ").slice(0, 120);
    expect(html).toContain(`<meta name="description" content="${expected}"/>`);
    expect(html).toContain('<link rel="canonical" href="https://bodima.example/listing/quiet-room-1042"/>');
    expect(html).toContain('<meta property="og:type" content="article"/>');
    expect(html).toContain('<meta property="og:image" content="https://bodima.example/photos/p1-1200.webp"/>');
  });

  it("describes the breadcrumb and the monthly offer as JSON-LD", () => {
    const [breadcrumb, product] = jsonLd(renderHead({ meta: listingMeta(SITE, listing()) }));
    expect(breadcrumb).toMatchObject({
      "@type": "BreadcrumbList",
      itemListElement: [
        { position: 1, name: "Home", item: "https://bodima.example/" },
        { position: 2, name: "Browse", item: "https://bodima.example/browse" },
        {
          position: 3,
          name: "University of Moratuwa",
          item: "https://bodima.example/university/university-of-moratuwa",
        },
        { position: 4, name: "Quiet room", item: "https://bodima.example/listing/quiet-room-1042" },
      ],
    });
    expect(product).toMatchObject({
      "@type": "Product",
      name: "Quiet room",
      offers: { "@type": "Offer", price: 15000, priceCurrency: "LKR", availability: "https://schema.org/InStock" },
    });
  });

  it("marks an expired listing's offer as discontinued", () => {
    const [, product] = jsonLd(renderHead({ meta: listingMeta(SITE, listing({ isExpired: true })) }));
    expect(product).toMatchObject({ offers: { availability: "https://schema.org/Discontinued" } });
  });

  it("keeps a title containing </script> inside the JSON-LD script", () => {
    const title = 'Room </script><script>alert("x")</script> & more';
    const html = renderHead({ meta: listingMeta(SITE, listing({ title })) });
    expect(html).not.toContain("<script>alert");
    const scripts = jsonLd(html);
    expect(scripts).toHaveLength(2);
    expect(scripts[1]).toMatchObject({ name: title });
  });

  it("gives the not-found page its own title and keeps it out of search results", () => {
    const html = renderHead({ meta: listingNotFoundMeta(SITE) });
    expect(html).toContain("<title>Listing not found | Bodima</title>");
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).not.toContain("application/ld+json");
  });
});

describe("listing page text in another language", () => {
  function renderPage(view: ListingView): string {
    const Stub = createRoutesStub([{ id: "routes/listing", path: "/listing/:slug", Component: ListingPage as never }]);
    return renderToString(
      <Stub
        initialEntries={["/listing/quiet-room-1042"]}
        hydrationData={{
          loaderData: {
            "routes/listing": { siteName: SITE.siteName, listing: view, universityHref: "/university/x", meta: [] },
          },
        }}
      />,
    );
  }

  it("marks the title and description with their language when it is not the page's", () => {
    const html = renderPage(
      listing({ title: "බෝඩිම් කාමරය", description: "அறை", titleLang: "si", descriptionLang: "ta" }),
    );
    expect(html).toMatch(/<h1 lang="si"[^>]*>බෝඩිම් කාමරය<\/h1>/);
    expect(html).toMatch(/<p lang="ta"[^>]*>அறை<\/p>/);
  });

  it("adds no lang attribute to English text on an English page", () => {
    const html = renderPage(listing());
    expect(html).toMatch(/<h1 class="[^"]*">Quiet room<\/h1>/);
    expect(html).not.toContain(' lang="');
  });
});
