import { createHash } from "node:crypto";
import sharp from "sharp";

/**
 * Perceptual fingerprints of photos, to find one owner's photo in another
 * owner's ad (ADR 074). Pure functions: an image in, three hashes out.
 *
 * - `hash`: a 64-bit perceptual hash (pHash: the signs of the lowest 8×8
 *   frequencies of a 32×32 greyscale copy against their median), as 16 hex
 *   digits. Re-encoding, resizing, brightness, a small crop or watermark
 *   change a few bits; an unrelated photo differs in about half of them.
 * - `mirrored`: the same hash of the image flipped left to right. No
 *   perceptual hash survives a mirror, so a lookup also tries this one.
 * - `exact`: SHA-256 of the decoded pixels (upright, RGB, with the size), so
 *   the same picture in another file format or with other metadata is equal.
 * - `plain`: the picture has next to no detail (one colour, a blank wall in
 *   fog): its hash is rounding noise, the same for many unrelated plain
 *   pictures, so it is stored never to be matched (ADR 082).
 */
export type PhotoFingerprint = { hash: string; mirrored: string; exact: string; plain?: boolean };

/** Side of the greyscale square the pHash is computed from. */
const SAMPLE = 32;
/** The lowest SAMPLE×SAMPLE frequencies kept: 8×8 = 64 bits. */
const KEPT = 8;

/**
 * Photos whose hashes differ in at most this many of 64 bits are the same
 * photo (with one of the edits above). Set from the labelled set in
 * photo-fingerprint.server.test.ts, which also says how much room it leaves.
 */
export const MATCH_DISTANCE = 10;

/**
 * A picture whose greyscale square's values spread (standard deviation) less
 * than this, of 255, is plain. Solid colours saved as JPEG or WebP spread
 * under 0.1; the least detailed photo of the labelled set, edited, about 15.
 */
export const PLAIN_SPREAD = 2;

/**
 * The fingerprint of an image buffer (any format sharp reads), or null when
 * it cannot be decoded. The upload pipeline passes the largest stored variant,
 * so a photo fingerprinted later from its stored file gets the same one.
 */
export async function fingerprintImage(input: Buffer): Promise<PhotoFingerprint | null> {
  try {
    const upright = sharp(input, { failOn: "error" }).autoOrient().flatten({ background: "#ffffff" });
    const [pixels, sample] = await Promise.all([
      upright.clone().toColourspace("srgb").raw().toBuffer({ resolveWithObject: true }),
      upright
        .clone()
        .greyscale()
        .resize(SAMPLE, SAMPLE, { fit: "fill", kernel: "cubic" })
        .raw()
        .toBuffer({ resolveWithObject: true }),
    ]);
    const grey = greyValues(sample.data, sample.info.channels);
    const exact = createHash("sha256")
      .update(`${pixels.info.width}x${pixels.info.height}x${pixels.info.channels}:`)
      .update(pixels.data)
      .digest("hex");
    return {
      hash: perceptualHash(grey),
      mirrored: perceptualHash(mirror(grey, SAMPLE)),
      exact,
      plain: spread(grey) < PLAIN_SPREAD,
    };
  } catch {
    return null;
  }
}

function greyValues(data: Buffer, channels: number): Float64Array {
  const values = new Float64Array(SAMPLE * SAMPLE);
  for (let i = 0; i < values.length; i++) values[i] = data[i * channels];
  return values;
}

/** The standard deviation of the values. */
function spread(values: Float64Array): number {
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  return Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length);
}

/** The square flipped left to right. */
export function mirror(values: Float64Array, side: number): Float64Array {
  const out = new Float64Array(values.length);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) out[y * side + x] = values[y * side + (side - 1 - x)];
  }
  return out;
}

/** cos((2x+1)uπ / 2N) for the kept frequencies u, computed once. */
const COSINES: Float64Array[] = Array.from({ length: KEPT }, (_, u) => {
  const row = new Float64Array(SAMPLE);
  for (let x = 0; x < SAMPLE; x++) row[x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * SAMPLE));
  return row;
});

/**
 * pHash of a SAMPLE×SAMPLE greyscale square: the 2-D DCT-II's lowest 8×8
 * coefficients (rows first, then columns; only those needed), each bit set
 * when its coefficient is above their median. The constant term (the mean
 * brightness) is left out of the median, so a brighter copy keeps its bits.
 */
export function perceptualHash(values: Float64Array): string {
  // Transform each row for the kept horizontal frequencies.
  const rows = new Float64Array(SAMPLE * KEPT);
  for (let y = 0; y < SAMPLE; y++) {
    for (let u = 0; u < KEPT; u++) {
      let sum = 0;
      const cos = COSINES[u];
      for (let x = 0; x < SAMPLE; x++) sum += values[y * SAMPLE + x] * cos[x];
      rows[y * KEPT + u] = sum;
    }
  }
  const coefficients = new Float64Array(KEPT * KEPT);
  for (let v = 0; v < KEPT; v++) {
    const cos = COSINES[v];
    for (let u = 0; u < KEPT; u++) {
      let sum = 0;
      for (let y = 0; y < SAMPLE; y++) sum += rows[y * KEPT + u] * cos[y];
      coefficients[v * KEPT + u] = sum;
    }
  }
  const median = medianOf(coefficients.subarray(1));
  let hex = "";
  for (let nibble = 0; nibble < 16; nibble++) {
    let digit = 0;
    for (let bit = 0; bit < 4; bit++) {
      if (coefficients[nibble * 4 + bit] > median) digit |= 8 >> bit;
    }
    hex += digit.toString(16);
  }
  return hex;
}

function medianOf(values: Float64Array): number {
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A 64-bit hash (16 hex digits) as four 16-bit numbers, highest first: the indexed chunks. */
export function hashChunks(hash: string): [number, number, number, number] {
  return [
    Number.parseInt(hash.slice(0, 4), 16),
    Number.parseInt(hash.slice(4, 8), 16),
    Number.parseInt(hash.slice(8, 12), 16),
    Number.parseInt(hash.slice(12, 16), 16),
  ];
}

function popcount16(n: number): number {
  let count = 0;
  for (let v = n; v; v &= v - 1) count++;
  return count;
}

/** How many of the 64 bits two hashes differ in. */
export function hammingDistance(a: string, b: string): number {
  return chunkDistance(hashChunks(a), hashChunks(b));
}

/**
 * How far apart two photos are: the nearer of the second one as it is and as
 * its mirror image. (The mirror of a copy of a mirror is a plain copy.)
 */
export function photoDistance(a: PhotoFingerprint, b: Pick<PhotoFingerprint, "hash">): number {
  return Math.min(hammingDistance(a.hash, b.hash), hammingDistance(a.mirrored, b.hash));
}

/**
 * The values of one 16-bit chunk a stored hash may have and still be looked
 * at: the chunk itself and the 16 values one bit away. Four chunks probed
 * this way find every stored hash within 7 bits (of 7 differing bits, one
 * chunk holds at most one: pigeonhole), and in the labelled set every copy
 * within MATCH_DISTANCE but one; exact chunks alone (within 3 bits) missed a
 * third of the cropped copies (ADR 074).
 */
export function chunkProbes(chunk: number): number[] {
  return [chunk, ...Array.from({ length: 16 }, (_, bit) => chunk ^ (1 << bit))];
}

type Chunks = [number, number, number, number];

/** Whether a lookup by chunks (chunkProbes) finds the stored chunks for these. */
function sharesAChunk(probe: Chunks, stored: Chunks): boolean {
  return stored.some((chunk, i) => popcount16(chunk ^ probe[i]) <= 1);
}

function chunkDistance(a: Chunks, b: Chunks): number {
  return popcount16(a[0] ^ b[0]) + popcount16(a[1] ^ b[1]) + popcount16(a[2] ^ b[2]) + popcount16(a[3] ^ b[3]);
}

/** A photo's two hashes as chunks, parsed once for comparing with many stored ones. */
export type PhotoChunks = { hash: Chunks; mirrored: Chunks };

export function photoChunks(photo: Pick<PhotoFingerprint, "hash" | "mirrored">): PhotoChunks {
  return { hash: hashChunks(photo.hash), mirrored: hashChunks(photo.mirrored) };
}

/**
 * Whether a stored photo (its hash as chunks) is a copy of the new one, as it
 * is or mirrored, as the lookup decides: found by a chunk (chunkProbes), and
 * within MATCH_DISTANCE. The distance when it is, else null.
 */
export function copyDistanceOfChunks(photo: PhotoChunks, stored: Chunks): number | null {
  let distance = Number.POSITIVE_INFINITY;
  for (const probe of [photo.hash, photo.mirrored]) {
    if (sharesAChunk(probe, stored)) distance = Math.min(distance, chunkDistance(probe, stored));
  }
  return distance <= MATCH_DISTANCE ? distance : null;
}

/** copyDistanceOfChunks for fingerprints as stored (hex). */
export function copyDistance(photo: PhotoFingerprint, stored: Pick<PhotoFingerprint, "hash">): number | null {
  return copyDistanceOfChunks(photoChunks(photo), hashChunks(stored.hash));
}
