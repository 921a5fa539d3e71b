/**
 * Near-duplicate text by MinHash and LSH (ADR 079): pure functions, no
 * dependency. A text is normalised to words, cut into overlapping word
 * shingles, hashed; a MinHash signature of SKETCH_BANDS × BAND_ROWS values
 * estimates the Jaccard similarity of two shingle sets, and its bands give
 * the keys a database looks candidates up by. The exact Jaccard of the
 * (hashed) shingle sets confirms a candidate.
 *
 * Frozen: every hash here is stored (description_bands, description_sketches).
 * Changing a seed, the hash or the shingle size makes old rows meaningless;
 * only with a migration that empties them and a backfill that writes them
 * again (the `description-sketches` job).
 */

/** Words per shingle (a text of fewer words is one shingle). */
export const SHINGLE_WORDS = 3;
/** Texts of fewer words are not compared: short ads share too much by chance. */
export const MIN_SKETCH_WORDS = 12;
/**
 * LSH: bands × rows MinHash values, and how many bands a stored text must
 * share with the one looked up to be read at all (ADR 079: a pair of Jaccard
 * 0.8 shares two bands 99.9% of the time, one of 0.4 under 3%, of 0.3 0.2%).
 */
export const SKETCH_BANDS = 24;
export const BAND_ROWS = 5;
export const MIN_SHARED_BANDS = 2;
export const SIGNATURE_SIZE = SKETCH_BANDS * BAND_ROWS;
/** Exact Jaccard at or above this: the same ad (ADR 078). */
export const SIMILAR_JACCARD = 0.8;

/** Zero-width characters: Sinhala writes conjuncts with ZWJ, and some keyboards do and some do not. */
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;
/** Anything not a letter or a combining mark (vowel signs of Sinhala and Tamil are marks) separates words. */
const NOT_WORD = /[^\p{L}\p{M}]+/gu;

/**
 * The words of a text as compared: Unicode NFKC, lower case, zero-width
 * characters dropped, and everything that is not a letter or a combining mark
 * (punctuation, digits, symbols, emoji) a break between words. Digits go, so
 * a copy with another phone number or rent is the same text.
 */
export function normalisedWords(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().replace(INVISIBLE, "").split(NOT_WORD).filter(Boolean);
}

/** murmur3's finaliser: a 32-bit integer well mixed (unsigned). */
function mix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over the UTF-16 code units, mixed: a string's 32-bit hash (unsigned). */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** The shingles of SHINGLE_WORDS consecutive words (one of all the words when there are fewer). */
export function shingles(words: readonly string[]): string[] {
  if (words.length === 0) return [];
  if (words.length <= SHINGLE_WORDS) return [words.join(" ")];
  const out: string[] = [];
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) out.push(words.slice(i, i + SHINGLE_WORDS).join(" "));
  return out;
}

/** The set of a text's shingle hashes, sorted ascending (unsigned 32-bit integers). */
export function shingleHashes(words: readonly string[]): Uint32Array {
  const set = new Set(shingles(words).map(hashString));
  return Uint32Array.from(set).sort();
}

/** The MinHash seeds: a fixed stream from a fixed start, one per hash function. */
const SEEDS: Uint32Array = (() => {
  const seeds = new Uint32Array(SIGNATURE_SIZE);
  let state = 0x9e3779b9;
  for (let i = 0; i < SIGNATURE_SIZE; i++) {
    state = (state + 0x6d2b79f5) | 0;
    seeds[i] = mix32(state ^ mix32(i + 1));
  }
  return seeds;
})();

/** The MinHash signature: for each seeded hash function, the least value over the shingle hashes. */
export function minHashSignature(hashes: Uint32Array): Uint32Array {
  const signature = new Uint32Array(SIGNATURE_SIZE).fill(0xffffffff);
  for (const h of hashes) {
    for (let i = 0; i < SIGNATURE_SIZE; i++) {
      const v = mix32(h ^ SEEDS[i]);
      if (v < signature[i]) signature[i] = v;
    }
  }
  return signature;
}

/**
 * One key per band: the band's BAND_ROWS values hashed with its number, as a
 * signed 32-bit integer (an `integer` column on both databases). Two texts
 * share band b's key when (but for a 2^-32 chance) their signatures agree on
 * all of band b's rows.
 */
export function bandKeys(signature: Uint32Array): number[] {
  const keys: number[] = [];
  for (let band = 0; band < SKETCH_BANDS; band++) {
    let h = mix32(band + 0x5bd1e995);
    for (let row = 0; row < BAND_ROWS; row++) h = mix32(Math.imul(h ^ signature[band * BAND_ROWS + row], 0x01000193));
    keys.push(h | 0);
  }
  return keys;
}

/** Jaccard estimated from two signatures: the share of hash functions whose least values agree. */
export function estimatedJaccard(a: Uint32Array, b: Uint32Array): number {
  let same = 0;
  for (let i = 0; i < SIGNATURE_SIZE; i++) if (a[i] === b[i]) same++;
  return same / SIGNATURE_SIZE;
}

/** The exact Jaccard of two sorted shingle-hash sets (1 for two empty ones). */
export function exactJaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let both = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      both++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return both / (a.length + b.length - both);
}

/** The chance that a pair of texts of Jaccard `s` shares MIN_SHARED_BANDS band keys or more (the LSH S-curve). */
export function candidateChance(s: number, bands = SKETCH_BANDS, rows = BAND_ROWS, shared = MIN_SHARED_BANDS): number {
  const q = s ** rows;
  let fewer = 0;
  let ways = 1;
  for (let k = 0; k < shared; k++) {
    fewer += ways * q ** k * (1 - q) ** (bands - k);
    ways = (ways * (bands - k)) / (k + 1);
  }
  return 1 - fewer;
}

/** How many band keys two sketches share (band by band). */
export function sharedBands(a: readonly number[], b: readonly number[]): number {
  let shared = 0;
  for (let band = 0; band < SKETCH_BANDS; band++) if (a[band] === b[band]) shared++;
  return shared;
}

export type TextSketch = {
  /** The sorted shingle hashes (the exact comparison). */
  shingles: Uint32Array;
  /** One key per band, band 0 first (the lookup). */
  bandKeys: number[];
};

/** A text's sketch, or null when it has fewer than MIN_SKETCH_WORDS words (not compared). */
export function sketchText(text: string): TextSketch | null {
  const words = normalisedWords(text);
  if (words.length < MIN_SKETCH_WORDS) return null;
  const hashes = shingleHashes(words);
  return { shingles: hashes, bandKeys: bandKeys(minHashSignature(hashes)) };
}

/** Shingle hashes as stored: 4 bytes each, big-endian, in base64 (text on both databases). */
export function encodeShingles(hashes: Uint32Array): string {
  let bytes = "";
  for (const h of hashes) bytes += String.fromCharCode(h >>> 24, (h >>> 16) & 0xff, (h >>> 8) & 0xff, h & 0xff);
  return btoa(bytes);
}

/** The stored shingle hashes back (sorted, as encoded); an unreadable value reads as none. */
export function decodeShingles(stored: string): Uint32Array {
  let bytes: string;
  try {
    bytes = atob(stored);
  } catch {
    return new Uint32Array(0);
  }
  const hashes = new Uint32Array(Math.floor(bytes.length / 4));
  for (let i = 0; i < hashes.length; i++) {
    const at = i * 4;
    hashes[i] =
      ((bytes.charCodeAt(at) << 24) |
        (bytes.charCodeAt(at + 1) << 16) |
        (bytes.charCodeAt(at + 2) << 8) |
        bytes.charCodeAt(at + 3)) >>>
      0;
  }
  return hashes;
}
