import { describe, expect, it } from "vitest";
import { inLocale } from "~/i18n/request-locale.server";
import { type ListingFacts, NOT_STATED_FACTS } from "~/schemas/listing-facts";
import { cardFacts, factsView } from "./facts.server";

const hostel: ListingFacts = {
  bills: "included",
  meals: "included",
  bathroom: "shared",
  bedsFree: 2,
  bedsTotal: 12,
  curfew: "22:00",
  visitors: "not_allowed",
  cooking: "allowed",
};

describe("factsView", () => {
  it("writes a line for each stated fact and the house rules as chips", () => {
    expect(factsView(hostel)).toEqual({
      lines: [
        { kind: "bills", text: "Bills: included in the rent" },
        { kind: "meals", text: "Meals: included in the rent" },
        { kind: "bathroom", text: "Bathroom: shared" },
        { kind: "beds", text: "Beds: 2 of 12 free" },
        { kind: "curfew", text: "Curfew: the gate closes at 10:00 PM" },
      ],
      rules: ["No visitors", "Cooking allowed"],
      notStated: null,
    });
  });

  it("names what the owner has not stated, and never guesses it", () => {
    expect(factsView(NOT_STATED_FACTS)).toEqual({
      lines: [],
      rules: [],
      notStated: "Not stated, ask when you call: bills, meals, bathroom, curfew, visitors, cooking",
    });
    expect(factsView({ ...NOT_STATED_FACTS, curfew: "none", bills: "meter" })).toMatchObject({
      lines: [
        { kind: "bills", text: "Bills: paid by a separate meter" },
        { kind: "curfew", text: "Curfew: none" },
      ],
      notStated: "Not stated, ask when you call: meals, bathroom, visitors, cooking",
    });
  });

  it("speaks Sinhala and Tamil", () => {
    const si = inLocale("si", () => factsView(hostel));
    const ta = inLocale("ta", () => factsView(hostel));
    expect(si.lines[0].text).toBe("බිල්පත්: කුලියට ඇතුළත්");
    expect(ta.rules).toEqual(["பார்வையாளர்களுக்கு அனுமதி இல்லை", "சமைக்க அனுமதி உண்டு"]);
  });
});

describe("cardFacts", () => {
  it("shows up to three facts students filter for", () => {
    expect(cardFacts(hostel)).toEqual(["2 beds free", "Bills included", "Meals included"]);
    expect(cardFacts({ ...NOT_STATED_FACTS, bathroom: "attached", curfew: "none" })).toEqual([
      "Attached bathroom",
      "No curfew",
    ]);
    expect(cardFacts({ ...NOT_STATED_FACTS, bills: "meter", bedsFree: 0, bedsTotal: 4 })).toEqual([]);
  });
});
