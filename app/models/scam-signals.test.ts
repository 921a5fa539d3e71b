import { describe, expect, it } from "vitest";
import { SCAM_SIGNAL_IDS } from "~/schemas/review-hold";
import { HOLD_AT, SEVERAL_NEW_ACCOUNTS, SIGNAL_WEIGHTS } from "./scam-phrases";
import { type ScamCheckInput, scoreListing } from "./scam-signals";

/** A listing with nothing suspicious but what `over` adds. */
function listing(over: Partial<ScamCheckInput> = {}): ScamCheckInput {
  return {
    title: "Room for a student",
    description: "",
    rent: 15000,
    keyMoney: null,
    typicalRent: { low: 12000, high: 18000, count: 20 },
    newAccounts: { onPhone: 1, onNetwork: 1 },
    ...over,
  };
}

const score = (description: string, over: Partial<ScamCheckInput> = {}) =>
  scoreListing(listing({ description, ...over }));
const ids = (description: string, over: Partial<ScamCheckInput> = {}) =>
  score(description, over).signals.map((s) => s.id);

/** Each signal's phrases, in English, Sinhala, Tamil, Singlish and Tanglish. */
const SIGNAL_CASES = {
  "advance-before-viewing": {
    en: "Please pay Rs. 10,000 advance before viewing the room.",
    si: "කාමරය බැලීමට පෙර රු. 10,000 ක අත්තිකාරම් මුදලක් ගෙවිය යුතුයි.",
    ta: "அறையைப் பார்ப்பதற்கு முன் 10,000 ரூபா முற்பணம் செலுத்த வேண்டும்.",
    siLatn: "Room eka reserve karanna advance ekak ewanna.",
    taLatn: "Room reserve panna advance anuppunga.",
  },
  "money-transfer": {
    en: "Rent can be paid by eZ Cash every month.",
    si: "කුලිය සෑම මසකම ඊසී කෑෂ් මගින් ගෙවිය හැක.",
    ta: "வாடகையை ஈசி கேஷ் மூலம் செலுத்தலாம்.",
    siLatn: "Kuliya masa patha account ekata danna puluwan.",
    taLatn: "Vaadagai maasam account la podunga.",
  },
  "owner-abroad": {
    en: "I am abroad at the moment, my family lives nearby.",
    si: "මම දැනට විදේශයක සිටිමි.",
    ta: "நான் தற்போது வெளிநாட்டில் இருக்கிறேன்.",
    siLatn: "Mama dan pita rata inne.",
    taLatn: "Naan ippo velinaattil irukkiren.",
  },
  "no-viewing": {
    en: "Viewing is not possible at the moment.",
    si: "දැනට ස්ථානය බලන්න බැහැ.",
    ta: "தற்போது இடத்தைப் பார்க்க முடியாது.",
    siLatn: "Dan thana balanna ba.",
    taLatn: "Ippo idam paakka mudiyathu.",
  },
} as const;

describe("scoreListing: each signal in each language", () => {
  for (const [signal, cases] of Object.entries(SIGNAL_CASES))
    for (const [script, text] of Object.entries(cases))
      it(`finds ${signal} in ${script}`, () => {
        const found = score(text).signals.find((s) => s.id === signal);
        expect(found, text).toBeDefined();
        expect(found?.weight).toBe(SIGNAL_WEIGHTS[signal as keyof typeof SIGNAL_WEIGHTS]);
        expect(found && "phrases" in found ? found.phrases.length : 0).toBeGreaterThan(0);
      });

  it("names the phrases it found, for the moderator", () => {
    const result = score("Send the advance by ez cash. Keys by courier.");
    const byId = Object.fromEntries(result.signals.map((s) => [s.id, "phrases" in s ? s.phrases : []]));
    expect(byId["money-transfer"]).toEqual(expect.arrayContaining(["ez cash", "send the advance"]));
    expect(byId["owner-abroad"]).toEqual(["keys by courier"]);
  });

  it("finds the keys sent by post in each language", () => {
    for (const text of [
      "I will send the keys by courier.",
      "යතුර තැපෑලෙන් එවන්නම්.",
      "சாவியை கூரியர் மூலம் அனுப்புவேன்.",
      "Yathura courier karala ewannam.",
      "Saavi courier la anuppuren.",
    ])
      expect(ids(text), text).toContain("owner-abroad");
  });

  it("is not turned around by words for 'or' that contain a 'not'", () => {
    expect(ids("ඊසී කෑෂ් මගින් එවන්න නැතහොත් මට කතා කරන්න.")).toContain("money-transfer");
    expect(ids("ஈசி கேஷ் மூலம் அனுப்புங்கள் இல்லையெனில் என்னை அழையுங்கள்.")).toContain("money-transfer");
    expect(ids("ඊසී කෑෂ් මගින් එවන්න එපා.")).not.toContain("money-transfer");
  });

  it("finds a reservation paid by bank deposit in Sinhala and Tamil", () => {
    expect(ids("වෙන් කර ගැනීමට අත්තිකාරම් ගිණුමට දමන්න.")).toEqual(
      expect.arrayContaining(["advance-before-viewing", "money-transfer"]),
    );
    expect(ids("முன்பதிவு செய்ய முற்பணத்தை வங்கிக் கணக்கில் வைப்பு செய்யவும்.")).toEqual(
      expect.arrayContaining(["advance-before-viewing", "money-transfer"]),
    );
  });
});

describe("scoreListing: the rent far below similar places", () => {
  it("fires at 40% below the middle of the typical range, not at 39%", () => {
    // typical 15,000: 40% below is 9,000.
    const at40 = score("", { rent: 9000 }).signals.find((s) => s.id === "low-rent");
    expect(at40).toMatchObject({ price: { typical: 15000, typicalLow: 12000, typicalHigh: 18000, percentBelow: 40 } });
    expect(ids("", { rent: 9200 })).not.toContain("low-rent");
  });

  it("says nothing without a typical range (too few similar places)", () => {
    expect(ids("", { rent: 1000, typicalRent: null })).toEqual([]);
  });

  it("counts key money paid up front as part of the rent", () => {
    // 8,000 + 12,000 / 12 = 9,000 a month: still 40% below; with a year's rent as key money it is not.
    expect(ids("", { rent: 8000, keyMoney: 12000 })).toContain("low-rent");
    expect(ids("", { rent: 8000, keyMoney: 120000 })).not.toContain("low-rent");
  });

  it("never holds a listing on the price alone, however low", () => {
    const result = score("", { rent: 500 });
    expect(result.signals.map((s) => s.id)).toEqual(["low-rent"]);
    expect(result.held).toBe(false);
    expect(SIGNAL_WEIGHTS["low-rent"]).toBeLessThan(HOLD_AT);
  });

  it("holds a listing too cheap to be true that nobody may see", () => {
    expect(score("No viewing possible.", { rent: 5000 }).held).toBe(true);
    expect(score("No viewing possible.").held).toBe(false);
  });
});

describe("scoreListing: new accounts on one phone or network", () => {
  it(`fires when ${SEVERAL_NEW_ACCOUNTS} new accounts share the phone or the network`, () => {
    expect(ids("", { newAccounts: { onPhone: SEVERAL_NEW_ACCOUNTS, onNetwork: 1 } })).toEqual([
      "shared-phone-or-network",
    ]);
    expect(ids("", { newAccounts: { onPhone: 1, onNetwork: SEVERAL_NEW_ACCOUNTS } })).toEqual([
      "shared-phone-or-network",
    ]);
    expect(ids("", { newAccounts: { onPhone: 2, onNetwork: 2 } })).toEqual([]);
  });

  it("does not hold alone, but does with money by eZ Cash", () => {
    const newAccounts = { onPhone: 4, onNetwork: 4 };
    expect(score("", { newAccounts }).held).toBe(false);
    expect(score("Pay the rent by eZ Cash.", { newAccounts }).held).toBe(true);
  });
});

/** Scam ads in each language: each must be held. */
const SCAM_ADS = {
  en: "Lovely room near campus. I am working abroad so viewing is not possible. Send Rs 10,000 advance by eZ Cash to reserve and I will courier the keys.",
  si: "කැම්පස් අසල කාමරය. මම විදේශයක සිටින නිසා බලන්න බැහැ. වෙන් කර ගැනීමට රු. 10,000 ඊසී කෑෂ් මගින් එවන්න, යතුර තැපෑලෙන් එවන්නම්.",
  ta: "வளாகத்துக்கு அருகில் அறை. நான் வெளிநாட்டில் இருப்பதால் பார்க்க முடியாது. முன்பதிவு செய்ய 10,000 ரூபா முற்பணத்தை ஈசி கேஷ் மூலம் அனுப்புங்கள்.",
  siLatn:
    "Campus ekata langa room ekak. Mama pita rata inne, balanna ba. Reserve karanna advance ekak ez cash karanna.",
  taLatn: "Campus pakkathula room. Naan velinaattil irukkiren, paakka mudiyathu. Reserve panna advance anuppunga.",
  mixed: "Boarding for girls. බැලීමට පෙර අත්තිකාරම් ගෙවිය යුතුයි. Call 0771234567.",
} as const;

/** Honest ads, with the words honest owners use: none may be held. */
const HONEST_ADS = [
  "Single room near University of Moratuwa. Key money 2 months, advance 1 month. Pay after viewing. Call 0771234567.",
  "No advance needed. Rent paid monthly, please call before coming.",
  "Never pay before viewing: come and see the room first, then we sign the agreement.",
  "Key money Rs. 30,000 (2 months). Viewing any day after 4 pm. No viewing after 8 pm.",
  "Owner lives abroad; my sister lives next door and will show you the room any day.",
  "Rent can be paid by bank deposit or cash at the start of each month.",
  "Please send a WhatsApp message before you visit so someone is home.",
  "Pay 2 months advance to book the room after viewing it.",
  "කාමරය බලලා අත්තිකාරම් ගෙවන්න. කී මනි මාස 2යි.",
  "බැලීමට පෙර මුදල් ගෙවීම අවශ්‍ය නැත. ඕනෑම දිනක බලන්න එන්න.",
  "බලන්න එන්න කලින් කතා කරන්න. කුලිය මාසිකව ගෙවිය යුතුයි.",
  "பார்வையிடும் முன் பணம் செலுத்த வேண்டாம். அறையைப் பார்த்த பின் ஒப்பந்தம் செய்யலாம்.",
  "முற்பணம் தேவையில்லை. வருவதற்கு முன் தொடர்பு கொள்ளவும்.",
  "Advance ekak ona na. Balanna enna kalin call karanna.",
  "Advance vendam. Paartha piragu panam kattunga.",
  "Girls only. No visitors after 10 pm. Cooking allowed.",
];

describe("scoreListing: whole ads", () => {
  for (const [script, text] of Object.entries(SCAM_ADS))
    it(`holds the scam ad in ${script}`, () => {
      const result = score(text);
      expect(result.score, JSON.stringify(result.signals)).toBeGreaterThanOrEqual(HOLD_AT);
      expect(result.held).toBe(true);
    });

  for (const text of HONEST_ADS)
    it(`does not hold the honest ad "${text.slice(0, 40)}…"`, () => {
      const result = score(text);
      expect(result.held, JSON.stringify(result.signals)).toBe(false);
      expect(result.signals.map((s) => s.id)).not.toContain("advance-before-viewing");
    });

  it("scores an honest ad at zero", () => {
    expect(score(HONEST_ADS[0])).toEqual({ score: 0, holdAt: HOLD_AT, held: false, signals: [] });
  });

  it("does not end a sentence at 'Rs.' or 'රු.'", () => {
    expect(ids("Pay Rs. 5000 before viewing")).toContain("advance-before-viewing");
    expect(ids("බැලීමට පෙර රු. 5000 ගෙවන්න")).toContain("advance-before-viewing");
    expect(ids("பார்ப்பதற்கு முன் ரூ. 5000 செலுத்துங்கள்")).toContain("advance-before-viewing");
  });

  it("reads the title too", () => {
    expect(scoreListing(listing({ title: "Send advance before viewing" })).held).toBe(true);
  });
});

describe("scoreListing: trivial evasions", () => {
  const evasions = [
    "Pay by E Z C A S H",
    "Pay by e.z.c.a.s.h",
    "Pay by e-z-c-a-s-h",
    "Pay by ez\u200Bcash",
    "Pay by EZ\u200D CASH",
    "Pay by 3z c4sh",
    "Pay by ez c@$h",
    "Pay by \u0435z\u0441\u0430sh", // Cyrillic е, с, а
    "Pay by ＥＺ ＣＡＳＨ", // full-width
    "Pay by 𝐞𝐳 𝐜𝐚𝐬𝐡", // mathematical bold
    "Pay by ézcásh",
    "Pay by   ez    cash",
    "Pay by m c a s h",
  ];
  for (const text of evasions)
    it(`still reads "${text}"`, () => {
      expect(ids(text)).toContain("money-transfer");
    });

  // Spaced out, digits for letters, soft hyphens and zero-width characters; Sinhala typed with or without joiners.
  const disguised = [
    "p a y  advance b e f o r e viewing",
    "P4Y ADV4NCE BEFORE V1EWING",
    "Send the adv\u00ADance to res\u200Berve",
    "බැලීමට පෙර අත්තිකාරම් ගෙවිය යුතුයි",
    "බැලීමට පෙර අත්\u200Dතිකාරම් ගෙවිය යුතුයි",
    "වෙන්\u200Dකර ගැනීමට මුදල් එවන්න",
  ];
  for (const text of disguised)
    it(`reads the advance request in ${JSON.stringify(text)}`, () => {
      expect(ids(text)).toContain("advance-before-viewing");
    });

  it("does not read letters out of plain words or amounts", () => {
    expect(ids("Rent 15000, 2 rooms, 1 bathroom. A to Z of campus life nearby.")).toEqual([]);
  });
});

describe("the review queue names every rule", () => {
  it("holds a listing with the engine's own ids (the price one is the queue's 'price' signal)", () => {
    const ruleIds = Object.keys(SIGNAL_WEIGHTS).filter((id) => id !== "low-rent");
    expect([...SCAM_SIGNAL_IDS].sort()).toEqual(ruleIds.sort());
  });
});
