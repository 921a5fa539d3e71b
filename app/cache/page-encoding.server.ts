import { createHash } from "node:crypto";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import { type CompressedPart, gzipAround } from "./spliced-gzip.server";

// How the page cache and the static files encode what they send: the
// compression levels, the client's preferred encoding, and the validator.

/** A body as sent: brotli, gzip or as it is. */
export type Encoding = "br" | "gzip" | "identity";

/**
 * Compression levels. "kept": pages asked for again, far smaller than gzip's
 * default for text and fast enough to pay once per page (brotli 5). "fast": a
 * miss, which may never be asked for again: brotli 3 takes 40 % of the time of
 * brotli 5 on a 100 KB browse page (0.6 against 1.4 ms, a fifth of the CPU of a
 * render) for 12 % more bytes; a page that is asked for again gets the kept
 * level after its first hit (ADR 045). "busy": a miss rendered while other
 * renders wait their turn, when every millisecond of a core is someone's wait:
 * brotli 1 takes about half the time of brotli 3 for 11-13 % more bytes (ADR 118).
 * A miss around its stylesheet compressed once is gzip at a miss's gzip level (ADR 128).
 */
const LEVELS = {
  kept: { br: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }, gzip: { level: 6 } },
  fast: { br: { params: { [constants.BROTLI_PARAM_QUALITY]: 3 } }, gzip: { level: 3 } },
  busy: { br: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }, gzip: { level: 1 } },
} as const;

export type Level = keyof typeof LEVELS;

export function encode(body: Buffer, encoding: Encoding, level: Level = "kept"): Buffer {
  if (encoding === "br") return brotliCompressSync(body, LEVELS[level].br);
  if (encoding === "gzip") return gzipSync(body, LEVELS[level].gzip);
  return body;
}

export function decode(body: Buffer, encoding: Encoding): Buffer {
  if (encoding === "br") return brotliDecompressSync(body);
  if (encoding === "gzip") return gunzipSync(body);
  return body;
}

/** What a client takes: the best encoding (brotli, then gzip) and whether gzip is among them. */
export type Accepted = { preferred: Encoding; gzip: boolean };

const NOTHING: Accepted = { preferred: "identity", gzip: false };
const acceptCache = new Map<string, Accepted>();

/** What a client takes, read once per distinct Accept-Encoding header. */
export function acceptedEncodings(acceptEncoding: string | undefined): Accepted {
  if (!acceptEncoding) return NOTHING;
  const known = acceptCache.get(acceptEncoding);
  if (known) return known;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(name.trim());
  }
  const gzip = accepted.has("gzip") || accepted.has("*");
  const choice: Accepted = { preferred: accepted.has("br") ? "br" : gzip ? "gzip" : "identity", gzip };
  if (acceptCache.size < 100) acceptCache.set(acceptEncoding, choice);
  return choice;
}

/** The best encoding a client takes (brotli, then gzip). */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  return acceptedEncodings(acceptEncoding).preferred;
}

/**
 * A miss's body as the cache first keeps it, at a miss's level. A page whose inline stylesheet
 * was compressed once (`stylesheet`, ADR 128) is gzip to any client that takes gzip, even one
 * that prefers brotli: only the rest of the page is compressed (a listing page: 220 µs at gzip 3
 * against 506 for brotli 3 over all of it, 132 at gzip 1 against 192 for brotli 1), for about as
 * many bytes. Its recompression when the worker is idle (ADR 045) makes the preferred encoding.
 */
export function encodeMiss(
  body: Buffer,
  client: Accepted,
  level: Exclude<Level, "kept">,
  stylesheet?: { at: number; part: CompressedPart },
): { encoding: Encoding; body: Buffer } {
  const { at, part } = stylesheet ?? { at: 0, part: null };
  // The part must be where the render said (a body changed after the render would not hold it).
  if (
    part &&
    client.preferred !== "identity" &&
    client.gzip &&
    body.subarray(at, at + part.raw.length).equals(part.raw)
  ) {
    const around = gzipAround(
      body.subarray(0, at),
      part,
      body.subarray(at + part.raw.length),
      LEVELS[level].gzip.level,
    );
    return { encoding: "gzip", body: around };
  }
  return { encoding: client.preferred, body: encode(body, client.preferred, level) };
}

/** A weak validator: the same page in any encoding. */
export function etagOf(body: Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}"`;
}

/** Whether an If-None-Match header names this ETag (weak comparison, RFC 9110 8.8.3.2). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === bare);
}
