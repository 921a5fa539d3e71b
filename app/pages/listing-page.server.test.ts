import { describe, expect, it } from "vitest";
import en from "~/i18n/en/listing-server.json";
import { inLocale } from "~/i18n/request-locale.server";
import si from "~/i18n/si/listing-server.json";
import ta from "~/i18n/ta/listing-server.json";
import { formatShortDate } from "~/lib/format";
import { NOT_STATED_FACTS } from "~/schemas/listing-facts";
import type { ListingDetail } from "~/schemas/listing-view";
import { listingMeta, telHref, toListingView, universityPath } from "./listing-page.server";

function detail(overrides: Partial<ListingDetail> = {}): ListingDetail {
  return {
    id: "42",
    adNumber: "1042",
    slug: "quiet-room-1042",
    title: "Quiet room",
    description: "A bright room.",
    price: 15000,
    keymoneyFee: 30000,
    advanceMonths: null,
    deposit: null,
    moveInCost: null,
    location: "Katubedda",
    latitude: null,
    longitude: null,
    ...NOT_STATED_FACTS,
    university: "University of Moratuwa",
    faculty: "Main Campus",
    city: "moratuwa",
    cityName: "Moratuwa",
    propertyType: "hostel",
    gender: "female",
    amenities: ["WiFi"],
    images: [],
    photos: [],
    status: "active",
    views: 1203,
    createdAt: "2026-11-22T08:00:00.000Z",
    updatedAt: "2026-11-22T08:00:00.000Z",
    expiresAt: "2026-12-22T08:00:00.000Z",
    contactName: "Mr Perera",
    contactPhone: "077 123 4567",
    whatsapp: false,
    viber: false,
    whatsappPhone: null,
    uniqueViews: 3,
    lastViewed: null,
    userId: "owner-1",
    isExpired: false,
    isLet: false,
    availabilityUnconfirmed: false,
    checks: {
      phoneConfirmedAt: null,
      emailConfirmed: false,
      photosCheckedAt: null,
      memberSince: null,
      availabilityConfirmedAt: null,
    },
    isPublic: true,
    ...overrides,
  };
}

describe("listing page values", () => {
  it("writes the price, key money, date, views and labels on the server", () => {
    const view = toListingView(detail(), 1204);
    expect(view).toMatchObject({
      priceLine: "LKR 15,000/month",
      keymoneyLine: "Key money: LKR 30,000",
      postedText: formatShortDate("2026-11-22T08:00:00.000Z"),
      viewsLine: "1,204 views",
      typeLabel: "Hostel",
      genderLabel: "Female Only",
      facultyTag: null,
      phoneHref: "tel:0771234567",
      callPing: "/listing/quiet-room-1042/contact/call",
      locationLink: { kind: "search", label: "Katubedda" },
    });
    expect(toListingView(detail({ keymoneyFee: null, faculty: "Faculty of Medicine" }), 1)).toMatchObject({
      keymoneyLine: null,
      facultyTag: "Faculty of Medicine",
      viewsLine: "1 view",
    });
  });

  it("tells the language of the owner's text, for JSON-LD and the lang attribute", () => {
    const sinhala = toListingView(detail({ title: "බෝඩිම් කාමරය", description: "කැම්පස් අසල. WiFi ඇත." }), 1);
    expect(sinhala).toMatchObject({ textLanguage: "si", titleLang: "si", descriptionLang: "si" });
    const mixed = toListingView(
      detail({ title: "Room near campus", description: "யாழ்ப்பாணம் பல்கலைக்கழகம் அருகில் அறை, மாணவிகளுக்கு மட்டும்." }),
      1,
    );
    expect(mixed).toMatchObject({ textLanguage: "ta", titleLang: null, descriptionLang: "ta" });
    expect(toListingView(detail(), 1)).toMatchObject({ textLanguage: "en", titleLang: null, descriptionLang: null });
    // On a Sinhala page only the English text is marked.
    expect(toListingView(detail({ description: "කැම්පස් අසල." }), 1, "si")).toMatchObject({
      titleLang: "en",
      descriptionLang: null,
    });
  });

  it("gives the offer's JSON-LD the language of the listing's text", () => {
    const site = { siteName: "Bodima", siteUrl: "https://bodima.example" };
    const product = (view: ReturnType<typeof toListingView>) =>
      listingMeta(site, view)
        .map((tag) => (tag as { "script:ld+json"?: Record<string, unknown> })["script:ld+json"])
        .find((json) => json?.["@type"] === "Product");
    expect(product(toListingView(detail({ title: "බෝඩිම් කාමරය", description: "නාන කාමරය සහිතයි." }), 1))).toMatchObject({
      inLanguage: "si",
      name: "බෝඩිම් කාමරය",
    });
    expect(product(toListingView(detail({ title: "அறை", description: "மாணவிகளுக்கு மட்டும்." }), 1))).toMatchObject({
      inLanguage: "ta",
    });
    expect(product(toListingView(detail(), 1))).toMatchObject({ inLanguage: "en" });
  });

  it("sends neither the owner's id nor anything not shown", () => {
    const view = toListingView(detail(), 1);
    expect(view).not.toHaveProperty("userId");
    expect(view).not.toHaveProperty("uniqueViews");
  });

  it("dials only a phone number that has enough digits", () => {
    expect(telHref("+94 77 123 4567")).toBe("tel:+94771234567");
    expect(telHref("Not provided")).toBeNull();
  });

  it("links the university's browse page by its directory id", () => {
    expect(universityPath("University of Moratuwa")).toBe("/university/university-of-moratuwa");
    expect(universityPath("Unknown College")).toBe("/university/Unknown%20College");
  });

  describe("WhatsApp and Viber beside 'Call Now' (ADR 087)", () => {
    const context = { siteName: "Bodima", phonesEnabled: true, siteUrl: "https://bodima.example" };
    const ticked = detail({ title: "Quiet room", whatsapp: true, viber: true });
    // The catalogue's words, filled in by hand: the link carries exactly them.
    const expected = (message: string, url: string) =>
      message.replace("{title}", "Quiet room").replace("{siteName}", "Bodima").replace("{url}", url);

    for (const [locale, catalogue, path] of [
      ["en", en, "/listing/quiet-room-1042"],
      ["si", si, "/si/listing/quiet-room-1042"],
      ["ta", ta, "/ta/listing/quiet-room-1042"],
    ] as const) {
      it(`links wa.me with the message in ${locale} and Viber's chat, as the owner ticked them`, () => {
        const view = inLocale(locale, () => toListingView(ticked, 1, locale, null, context));
        const [whatsapp, viber] = view.chatLinks;
        expect(whatsapp.kind).toBe("whatsapp");
        expect(whatsapp.label).toBe(catalogue.chat.whatsapp);
        const href = new URL(whatsapp.href);
        expect(`${href.origin}${href.pathname}`).toBe("https://wa.me/94771234567");
        const text = expected(catalogue.chat.message, `https://bodima.example${path}`);
        expect(whatsapp.href).toBe(`https://wa.me/94771234567?text=${encodeURIComponent(text)}`);
        expect(decodeURIComponent(whatsapp.href.split("?text=")[1])).toBe(text);
        expect(viber).toEqual({
          kind: "viber",
          label: catalogue.chat.viber,
          href: "viber://chat?number=%2B94771234567",
          hint: catalogue.chat.viberHint,
          ping: "/listing/quiet-room-1042/contact/viber",
        });
      });
    }

    it("shows only what the owner ticked", () => {
      expect(toListingView(detail(), 1, "en", null, context).chatLinks).toEqual([]);
      expect(toListingView(detail({ viber: true }), 1, "en", null, context).chatLinks.map((l) => l.kind)).toEqual([
        "viber",
      ]);
      expect(toListingView(detail({ whatsapp: true }), 1, "en", null, context).chatLinks.map((l) => l.kind)).toEqual([
        "whatsapp",
      ]);
    });

    it("opens WhatsApp on its own number when the owner gave one, Viber on the contact number", () => {
      const own = detail({ ...ticked, whatsappPhone: "+94 76 555 1234" });
      const [whatsapp, viber] = toListingView(own, 1, "en", null, context).chatLinks;
      expect(whatsapp.href).toMatch(/^https:\/\/wa\.me\/94765551234\?text=/);
      expect(viber.href).toBe("viber://chat?number=%2B94771234567");
      // A landline for calls, WhatsApp on a mobile: only the WhatsApp link.
      const landline = detail({ ...ticked, contactPhone: "011 234 5678", whatsappPhone: "076 555 1234" });
      expect(toListingView(landline, 1, "en", null, context).chatLinks.map((l) => l.kind)).toEqual(["whatsapp"]);
    });

    it("gives no chat links for a landline or a number that is no Sri Lankan one", () => {
      for (const contactPhone of ["011 234 5678", "+44 20 7946 0958", "Not provided"])
        expect(toListingView(detail({ ...ticked, contactPhone }), 1, "en", null, context).chatLinks).toEqual([]);
    });
  });
});
