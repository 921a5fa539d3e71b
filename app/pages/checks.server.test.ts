import { describe, expect, it } from "vitest";
import { inLocale } from "~/i18n/request-locale.server";
import type { ListingChecks } from "~/schemas/listing-checks";
import { cardBadges, checksView } from "./checks.server";

// ADR 080: the 'What Bodima checked' lines, dated in the page's language
// (Sri Lanka's time zone), each only when true, and always what nobody checked.

const NOW = new Date("2026-11-15T06:00:00.000Z");
const ALL: ListingChecks = {
  // 23:30 on the 11th in UTC is already the 12th in Colombo.
  phoneConfirmedAt: "2026-11-11T23:30:00.000Z",
  emailConfirmed: true,
  photosCheckedAt: "2026-11-12T08:00:00.000Z",
  memberSince: "2026-10-03T08:00:00.000Z",
  availabilityConfirmedAt: "2026-11-12T05:00:00.000Z",
};
const NONE: ListingChecks = {
  phoneConfirmedAt: null,
  emailConfirmed: false,
  photosCheckedAt: null,
  memberSince: null,
  availabilityConfirmedAt: null,
};

describe("what Bodima checked, in words", () => {
  it("dates each check in English, as the contract words them", () => {
    expect(checksView(ALL, "Bodima", NOW)).toEqual({
      heading: "What Bodima checked",
      lines: [
        "Phone number confirmed by SMS on 12 Nov 2026",
        "Email address confirmed",
        "Photos checked on 12 Nov 2026: not found in any other owner's ad",
        "On Bodima since October 2026",
        "Availability confirmed 3 days ago",
      ],
      notChecked: "Nobody from Bodima has visited this place or met the owner.",
    });
  });

  it("says only what is true, and always what nobody checked", () => {
    expect(checksView(NONE, "Bodima", NOW)).toEqual({
      heading: "What Bodima checked",
      lines: [],
      notChecked: "Nobody from Bodima has visited this place or met the owner.",
    });
    expect(checksView({ ...NONE, availabilityConfirmedAt: "2026-11-15T01:00:00.000Z" }, "Bodima", NOW).lines).toEqual([
      "Availability confirmed today",
    ]);
  });

  it("writes the dates in Sinhala and Tamil", () => {
    const si = inLocale("si", () => checksView(ALL, "Bodima", NOW));
    expect(si.heading).toBe("Bodima පරීක්ෂා කළ දේ");
    expect(si.lines[0]).toBe("දුරකථන අංකය 2026 නොවැ 12 දින SMS මගින් තහවුරු කළා");
    expect(si.lines[3]).toBe("2026 ඔක්තෝබර් සිට Bodima හි");
    expect(si.notChecked).toContain("Bodima");
    const ta = inLocale("ta", () => checksView(ALL, "Bodima", NOW));
    expect(ta.lines[0]).toBe("தொலைபேசி இலக்கம் 12 நவ., 2026 அன்று SMS மூலம் உறுதிப்படுத்தப்பட்டது");
    expect(ta.lines[2]).toContain("12 நவ., 2026");
    expect(ta.lines[3]).toBe("அக்டோபர் 2026 முதல் Bodima இல்");
    // No English left in either (the site's name and 'SMS' aside).
    for (const line of [...si.lines, ...ta.lines]) expect(line.replace(/Bodima|SMS/g, "")).not.toMatch(/[A-Za-z]/);
  });

  it("gives a card at most two short badges", () => {
    expect(cardBadges(ALL)).toEqual(["Phone confirmed", "Photos checked"]);
    expect(cardBadges({ ...ALL, phoneConfirmedAt: null })).toEqual(["Photos checked"]);
    expect(cardBadges(NONE)).toEqual([]);
    expect(inLocale("ta", () => cardBadges(ALL))).toEqual(["தொலைபேசி உறுதி", "புகைப்படங்கள் சரிபார்ப்பு"]);
  });
});
