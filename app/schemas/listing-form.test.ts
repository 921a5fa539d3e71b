import { describe, expect, it } from "vitest";
import { NOT_STATED_FACTS } from "./listing-facts";
import { countLinks, parseListingForm, type RawListingForm, readListingForm } from "./listing-form";

const valid: RawListingForm = {
  title: "Room near the engineering faculty",
  description: "Quiet room with a desk.",
  price: "15000",
  keymoneyFee: "",
  university: "University of Moratuwa",
  faculty: "",
  propertyType: "single",
  gender: "",
  mapLink: "",
  location: "",
  contactName: "Nimal",
  contactPhone: "0771234567",
  amenities: ["WiFi"],
};

function errorsOf(raw: RawListingForm) {
  const result = parseListingForm(raw);
  if (result.ok) throw new Error("expected errors");
  return result;
}

describe("parseListingForm", () => {
  it("accepts a valid listing, defaulting faculty and gender and deriving the city", () => {
    const result = parseListingForm(valid);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.data).toMatchObject({
      price: 15000,
      keymoneyFee: null,
      faculty: "Main Campus",
      gender: "any",
      city: "moratuwa",
      amenities: ["WiFi"],
      location: null,
    });
  });

  it("leads with the spec's required-fields message whenever a required field is empty", () => {
    for (const field of ["title", "description", "price", "contactName", "contactPhone", "university"] as const) {
      const result = errorsOf({ ...valid, [field]: "  ", mapLink: "https://example.com" });
      expect(result.errors[field]).toBe("listingForm.errors.required");
      expect(result.first).toBe("listingForm.errors.required");
    }
  });

  it("wants whole, non-negative rupee amounts", () => {
    for (const price of ["-5", "12.5", "abc", "1e5", "99999999999"]) {
      expect(errorsOf({ ...valid, price }).errors.price).toBe("listingForm.errors.wholeNumber");
    }
    expect(errorsOf({ ...valid, keymoneyFee: "-1" }).errors.keymoneyFee).toBe("listingForm.errors.wholeNumber");
    const ok = parseListingForm({ ...valid, price: "0", keymoneyFee: "30000" });
    expect(ok.ok && [ok.data.price, ok.data.keymoneyFee]).toEqual([0, 30000]);
  });

  it("takes the advance as 0 to 12 months and the deposit as rupees, both optional ('not stated')", () => {
    const stated = parseListingForm({ ...valid, advanceMonths: "3", deposit: "20000" });
    expect(stated.ok && [stated.data.advanceMonths, stated.data.deposit]).toEqual([3, 20000]);
    const none = parseListingForm({ ...valid, advanceMonths: "0", deposit: "" });
    expect(none.ok && [none.data.advanceMonths, none.data.deposit]).toEqual([0, null]);
    // A form from before these fields existed (or a client that leaves them out) states nothing.
    const unstated = parseListingForm(valid);
    expect(unstated.ok && [unstated.data.advanceMonths, unstated.data.deposit]).toEqual([null, null]);
    for (const advanceMonths of ["13", "-1", "1.5", "two", "100"]) {
      expect(errorsOf({ ...valid, advanceMonths }).errors.advanceMonths).toBe("listingForm.errors.advanceMonths");
    }
    expect(errorsOf({ ...valid, deposit: "5,000" }).errors.deposit).toBe("listingForm.errors.wholeNumber");
  });

  it("stores the facts students ask first, 'not stated' (null) unless chosen (ADR 051)", () => {
    const parsed = parseListingForm(valid);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.data).toMatchObject(NOT_STATED_FACTS);
    const said = Object.fromEntries(
      [
        "bills=included",
        "meals=available",
        "bathroom=shared",
        "curfew=22:00",
        "visitors=not_allowed",
        "cooking=allowed",
      ].map((pair) => pair.split("=")),
    );
    const stated = parseListingForm({ ...valid, ...said, propertyType: "hostel", bedsFree: "2", bedsTotal: "12" });
    if (!stated.ok) throw new Error(JSON.stringify(stated.errors));
    expect(stated.data).toMatchObject({ ...said, bedsFree: 2, bedsTotal: 12 });
  });

  it("asks beds of shared rooms and hostels only, never more free than in all", () => {
    const beds = { bedsFree: "2", bedsTotal: "4" };
    const single = parseListingForm({ ...valid, ...beds });
    expect(single.ok && [single.data.bedsFree, single.data.bedsTotal]).toEqual([null, null]);
    const shared = parseListingForm({ ...valid, propertyType: "shared", ...beds });
    expect(shared.ok && [shared.data.bedsFree, shared.data.bedsTotal]).toEqual([2, 4]);
    expect(errorsOf({ ...valid, propertyType: "shared", bedsFree: "5", bedsTotal: "4" }).errors).toEqual({
      bedsFree: "listingForm.errors.bedsFree",
    });
    expect(errorsOf({ ...valid, propertyType: "hostel", bedsTotal: "201" }).errors).toEqual({
      bedsTotal: "listingForm.errors.beds",
    });
  });

  it("refuses a fact value the form does not offer, keeping what was typed", () => {
    for (const [field, value] of [
      ["bills", "free"],
      ["meals", "yes"],
      ["bathroom", "1"],
      ["curfew", "22:15"],
      ["visitors", "sometimes"],
      ["cooking", "<script>"],
    ] as const) {
      const result = errorsOf({ ...valid, [field]: value });
      expect(result.errors).toEqual({ [field]: "listingForm.errors.choice" });
      expect(result.values[field]).toBe(value);
    }
  });

  it("reads the exact-point box: ticked is '1', anything else sent is refused (ADR 052)", () => {
    const ticked = parseListingForm({ ...valid, coordinates: "6.7951, 79.9009", exactPosition: "1" });
    expect(ticked.ok && ticked.data.exactPosition).toBe(true);
    const unticked = parseListingForm(valid);
    expect(unticked.ok && unticked.data.exactPosition).toBe(false);
    expect(errorsOf({ ...valid, exactPosition: "on" }).errors).toEqual({ exactPosition: "listingForm.errors.choice" });
  });

  it("takes the position from typed coordinates, else from the map link (ADR 049)", () => {
    const position = (raw: RawListingForm) => {
      const result = parseListingForm({ ...valid, ...raw });
      return result.ok ? [result.data.latitude, result.data.longitude] : result.errors;
    };
    expect(position({ coordinates: "6.7951, 79.9009" })).toEqual([6.7951, 79.9009]);
    expect(position({ mapLink: "https://www.google.com/maps/@6.7951,79.9009,17z" })).toEqual([6.7951, 79.9009]);
    // Typed numbers win over the link's.
    expect(position({ coordinates: "6.8, 79.9", mapLink: "https://www.google.com/maps/@6.7951,79.9009,17z" })).toEqual([
      6.8, 79.9,
    ]);
    // A short link cannot be read without a network call: accepted, with no position.
    expect(position({ mapLink: "https://maps.app.goo.gl/abc123" })).toEqual([null, null]);
    expect(position({})).toEqual([null, null]);
  });

  it("refuses a position outside Sri Lanka, or numbers that are not one, on the field that gave it", () => {
    expect(errorsOf({ ...valid, coordinates: "13.0827, 80.2707" }).errors).toMatchObject({
      coordinates: "listingForm.errors.outsideSriLanka",
    });
    expect(errorsOf({ ...valid, mapLink: "https://www.google.com/maps/@51.5074,-0.1278,12z" }).errors).toMatchObject({
      mapLink: "listingForm.errors.outsideSriLanka",
    });
    for (const coordinates of ["near the temple", "6.79", "95, 200"]) {
      expect(errorsOf({ ...valid, coordinates }).errors.coordinates).toBe("listingForm.errors.coordinates");
    }
  });

  it("checks university and faculty against the directory and ignores any posted city", () => {
    expect(errorsOf({ ...valid, university: "Hogwarts" }).errors.university).toBe("listingForm.errors.university");
    expect(errorsOf({ ...valid, faculty: "Faculty of Wizardry" }).errors.faculty).toBe("listingForm.errors.faculty");
    const tampered = parseListingForm({ ...valid, city: "jaffna" } as RawListingForm);
    expect(tampered.ok && tampered.data.city).toBe("moratuwa");
  });

  it("keeps property type, gender and amenities to the known lists", () => {
    expect(errorsOf({ ...valid, propertyType: "castle" }).errors.propertyType).toBe("listingForm.errors.propertyType");
    expect(errorsOf({ ...valid, gender: "robots" }).errors.gender).toBe("listingForm.errors.gender");
    expect(errorsOf({ ...valid, amenities: ["Pool"] }).errors.amenities).toBe("listingForm.errors.amenities");
  });

  it("accepts only maps links, and stores a map link over the location text", () => {
    expect(errorsOf({ ...valid, mapLink: "https://example.com/maps" }).first).toBe("listingForm.errors.mapLink");
    const result = parseListingForm({ ...valid, mapLink: "https://maps.app.goo.gl/abc", location: "Katubedda" });
    expect(result.ok && result.data.location).toBe("https://maps.app.goo.gl/abc");
    const text = parseListingForm({ ...valid, location: "Katubedda junction" });
    expect(text.ok && text.data.location).toBe("Katubedda junction");
  });

  it("enforces maximum lengths", () => {
    expect(errorsOf({ ...valid, title: "x".repeat(121) }).errors.title).toBe("listingForm.errors.tooLong");
    expect(errorsOf({ ...valid, description: "x".repeat(5001) }).errors.description).toBe("listingForm.errors.tooLong");
    expect(errorsOf({ ...valid, location: "x".repeat(501) }).errors.location).toBe("listingForm.errors.tooLong");
    expect(errorsOf({ ...valid, contactPhone: "0".repeat(21) }).errors.contactPhone).toBe("listingForm.errors.tooLong");
  });

  it("refuses listings carrying more than 2 links", () => {
    expect(countLinks("see https://a.example and www.b.example")).toBe(2);
    expect(parseListingForm({ ...valid, description: "https://a.lk and https://b.lk" }).ok).toBe(true);
    expect(errorsOf({ ...valid, description: "https://a.lk https://b.lk https://c.lk" }).errors.description).toBe(
      "listingForm.errors.tooManyLinks",
    );
  });

  it("reads only the form's own fields", () => {
    const form = new FormData();
    form.set("title", "T");
    form.set("userId", "someone-else");
    form.append("amenities", "WiFi");
    form.append("amenities", "AC");
    const raw = readListingForm(form);
    expect(raw.title).toBe("T");
    expect(raw.amenities).toEqual(["WiFi", "AC"]);
    expect("userId" in raw).toBe(false);
  });

  it("takes the WhatsApp and Viber boxes, off unless ticked (ADR 087)", () => {
    const off = parseListingForm(valid);
    if (!off.ok) throw new Error(JSON.stringify(off.errors));
    expect(off.data).toMatchObject({ whatsapp: false, viber: false });
    const on = parseListingForm({ ...valid, whatsapp: "1", viber: "1" });
    if (!on.ok) throw new Error(JSON.stringify(on.errors));
    expect(on.data).toMatchObject({ whatsapp: true, viber: true });
    const form = new FormData();
    form.set("whatsapp", "1");
    expect(readListingForm(form)).toMatchObject({ whatsapp: "1", viber: "" });
    expect(errorsOf({ ...valid, whatsapp: "yes" }).errors.whatsapp).toBe("listingForm.errors.choice");
    expect(errorsOf({ ...valid, viber: "true" }).errors.viber).toBe("listingForm.errors.choice");
  });
});
