import { describe, expect, it } from "vitest";
import { COPY_EDITS, roomAdSentences, roomAds } from "~/bench/room-ads";
import { createRandom } from "~/seed/random";
import {
  candidateChance,
  decodeShingles,
  encodeShingles,
  estimatedJaccard,
  exactJaccard,
  MIN_SHARED_BANDS,
  MIN_SKETCH_WORDS,
  minHashSignature,
  normalisedWords,
  SIMILAR_JACCARD,
  sharedBands,
  shingleHashes,
  shingles,
  sketchText,
} from "./text-sketch";

const SINHALA_AD =
  "කොළඹ 03 ප්‍රදේශයේ ශිෂ්‍යාවන් සඳහා කාමරයක් කුලියට දෙනු ලැබේ. විශ්වවිද්‍යාලයට විනාඩි දහයක් පයින් යා හැක. " +
  "ඇඳ, මේසය, පුටුව සහ අල්මාරිය ඇත. නාන කාමරය කාමරයටම අමුණා ඇත. මාසික කුලිය රු. 15000 යි. " +
  "දුම්පානය හා මත්පැන් තහනම්. රාත්‍රී 10 ට පසු ගේට්ටුව වැසේ. විස්තර සඳහා 0771234567 අමතන්න.";
const TAMIL_AD =
  "யாழ்ப்பாணம் திருநெல்வேலியில் மாணவிகளுக்கு அறை வாடகைக்கு உண்டு. பல்கலைக்கழகத்திற்கு ஐந்து நிமிட நடை. " +
  "கட்டில், மேசை, நாற்காலி மற்றும் அலமாரி உண்டு. இணைந்த குளியலறை. மாத வாடகை ரூ. 12000. " +
  "புகைத்தல் மற்றும் மது அருந்துதல் தடை. மேலதிக விபரங்களுக்கு 0761234567 அழைக்கவும்.";

function jaccardOf(a: string, b: string): number {
  return exactJaccard(shingleHashes(normalisedWords(a)), shingleHashes(normalisedWords(b)));
}

/** Whether two texts share enough band keys for the lookup to find one from the other. */
function candidates(a: string, b: string): boolean {
  const [x, y] = [sketchText(a), sketchText(b)];
  if (!x || !y) return false;
  return sharedBands(x.bandKeys, y.bandKeys) >= MIN_SHARED_BANDS;
}

describe("normalisedWords", () => {
  it("folds case, punctuation and digits, so another phone number or rent is the same text", () => {
    expect(normalisedWords("Room for RENT!! Call 077-123 4567. Rs.15,000/= (bills incl.)")).toEqual([
      "room",
      "for",
      "rent",
      "call",
      "rs",
      "bills",
      "incl",
    ]);
    expect(normalisedWords("Room for rent, call 0719876543, Rs 9000")).toEqual(
      normalisedWords("ROOM FOR RENT — call 077 123 4567 — Rs. 15,000/="),
    );
  });

  it("reads full-width letters and ligatures as the plain ones (NFKC), and emoji as breaks", () => {
    expect(normalisedWords("ＲＯＯＭ ﬁne 🏠room")).toEqual(["room", "fine", "room"]);
  });

  it("keeps Sinhala words whole, vowel signs and virama included, with or without the joiner", () => {
    expect(normalisedWords("ශ්‍රී ලංකා, කාමරය 15000යි!")).toEqual(["ශ්රී", "ලංකා", "කාමරය", "යි"]);
    // Written with the zero-width joiner and without it: one word either way.
    expect(normalisedWords("ශ්\u200Dරී")).toEqual(normalisedWords("ශ්රී"));
    expect(normalisedWords(SINHALA_AD)).toContain("විශ්වවිද්යාලයට");
  });

  it("keeps Tamil words whole, pulli and vowel signs included", () => {
    expect(normalisedWords("அறை வாடகைக்கு உண்டு. தொடர்பு: 077 1234567")).toEqual(["அறை", "வாடகைக்கு", "உண்டு", "தொடர்பு"]);
  });
});

describe("shingles and sketches", () => {
  it("cuts words into overlapping 3-word shingles, a text of fewer into one", () => {
    expect(shingles(["a", "quiet", "room", "near", "campus"])).toEqual([
      "a quiet room",
      "quiet room near",
      "room near campus",
    ]);
    expect(shingles(["quiet", "room"])).toEqual(["quiet room"]);
    expect(shingles([])).toEqual([]);
  });

  it(`compares no text of fewer than ${MIN_SKETCH_WORDS} words`, () => {
    const words = Array.from({ length: MIN_SKETCH_WORDS }, (_, i) => `word${String.fromCharCode(97 + i)}`);
    expect(sketchText(words.slice(1).join(" "))).toBeNull();
    expect(sketchText("Room for rent. Call 0771234567 now!")).toBeNull();
    expect(sketchText(words.join(" "))?.bandKeys).toHaveLength(24);
  });

  it("gives the same keys on every run and machine (they are stored: a change needs a migration)", () => {
    const sketch = sketchText(FROZEN_TEXT)!;
    expect(sketch.bandKeys.slice(0, 3)).toEqual(FROZEN_KEYS);
    expect(sketch.bandKeys.every((k) => Number.isInteger(k) && k >= -(2 ** 31) && k < 2 ** 31)).toBe(true);
  });

  it("stores the shingle hashes and reads them back the same; a damaged value reads as none", () => {
    const hashes = shingleHashes(normalisedWords(SINHALA_AD));
    expect(decodeShingles(encodeShingles(hashes))).toEqual(hashes);
    expect(decodeShingles(encodeShingles(new Uint32Array([0, 0xffffffff])))).toEqual(new Uint32Array([0, 0xffffffff]));
    expect(decodeShingles("not base64 at all!")).toEqual(new Uint32Array(0));
  });

  it("estimates the Jaccard from signatures within a few points of the exact one", () => {
    const rand = createRandom(3);
    const errors: number[] = [];
    for (let i = 0; i < 200; i++) {
      const sentences = roomAdSentences(rand);
      // From the same ad to one that shares half its sentences and more.
      const other = [...sentences.slice(0, rand.int(0, sentences.length)), ...roomAdSentences(rand).slice(0, 4)];
      const [a, b] = [sentences.join(" "), other.join(" ")].map((t) => shingleHashes(normalisedWords(t)));
      errors.push(Math.abs(estimatedJaccard(minHashSignature(a), minHashSignature(b)) - exactJaccard(a, b)));
    }
    // 100 hash functions: a standard error of 0.05 at most (0.04 at a Jaccard of 0.8).
    expect(errors.reduce((s, e) => s + e, 0) / errors.length).toBeLessThan(0.04);
    expect(Math.max(...errors)).toBeLessThan(0.17);
  });

  it("makes a pair of Jaccard 0.8 a candidate 99.9% of the time, one of 0.4 under 3%, of 0.3 under 0.2%", () => {
    expect(candidateChance(SIMILAR_JACCARD)).toBeGreaterThan(0.999);
    expect(candidateChance(0.4)).toBeLessThan(0.03);
    expect(candidateChance(0.3)).toBeLessThan(0.002);
    // One shared band of 20 × 4 (the usual textbook choice) would read nearly two in three pairs of 0.5.
    expect(candidateChance(0.5, 20, 4, 1)).toBeGreaterThan(0.7);
    expect(candidateChance(0.5)).toBeLessThan(0.2);
  });
});

describe("a copied ad against different ads (labelled pairs)", () => {
  const rand = createRandom(11);
  const originals = Array.from({ length: 40 }, () => roomAdSentences(rand));

  for (const edit of COPY_EDITS) {
    it(`finds the same ad ${edit.name}: Jaccard at least 0.8, and a candidate by its band keys`, () => {
      for (const sentences of originals) {
        const original = sentences.join(" ");
        const copy = edit.apply(sentences, rand);
        expect(jaccardOf(original, copy), copy).toBeGreaterThanOrEqual(SIMILAR_JACCARD);
        expect(candidates(original, copy), copy).toBe(true);
      }
    });
  }

  it("finds a Sinhala and a Tamil ad with another phone number and rent", () => {
    for (const ad of [SINHALA_AD, TAMIL_AD]) {
      const copy = ad.replace(/07\d+/, "0719998888").replace(/1[25]000/, "9500");
      expect(copy).not.toBe(ad);
      expect(jaccardOf(ad, copy)).toBe(1);
      expect(candidates(ad, copy)).toBe(true);
    }
    expect(jaccardOf(SINHALA_AD, TAMIL_AD)).toBe(0);
  });

  it("never takes two different owners' ads for one: 300 ads, 44,850 pairs, all under 0.8", () => {
    const ads = roomAds(300);
    const sets = ads.map((ad) => shingleHashes(normalisedWords(ad)));
    const keys = ads.map((ad) => sketchText(ad)!.bandKeys);
    let highest = 0;
    let candidatePairs = 0;
    let pairs = 0;
    for (let i = 0; i < ads.length; i++) {
      for (let j = i + 1; j < ads.length; j++) {
        pairs++;
        highest = Math.max(highest, exactJaccard(sets[i], sets[j]));
        if (sharedBands(keys[i], keys[j]) >= MIN_SHARED_BANDS) candidatePairs++;
      }
    }
    expect(pairs).toBe(44_850);
    expect(highest).toBeLessThan(SIMILAR_JACCARD);
    // Ads written from the same phrases still rarely share two bands: few candidates to confirm per lookup.
    expect(candidatePairs / pairs).toBeLessThan(0.0005);
  });
});

/** A text and the first three of its band keys as stored since migration 038. */
const FROZEN_TEXT = "Single room for a female student, five minutes walk to the main gate. Attached bathroom.";
const FROZEN_KEYS = [217214623, 321368218, -711004841];
