import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { variedCards } from "../../tests/varied-cards";
import { acceptedEncodings, encode, encodeMiss } from "./page-encoding.server";
import { compressPart, gzipAround } from "./spliced-gzip.server";

// A stylesheet-like part over deflate's 32 KB window, between two pieces of a page that repeat
// its words: a back-reference across the joins would decode to the wrong bytes, and gunzip
// checks the trailer's CRC and length against what it decoded.
const stylesheet = Buffer.from(
  Array.from(
    { length: 1_200 },
    (_, i) => `.c${i}{margin:${i % 7}px;color:#${(i * 2654435761).toString(16).slice(0, 6)}}`,
  ).join(""),
);
const before = Buffer.from(`<!DOCTYPE html><html lang="si"><head><style id="site-css">`);
const after = Buffer.from(`</style></head><body><ul>${variedCards(3, 300)}</ul>.c1{margin:1px}</body></html>`);
const page = Buffer.concat([before, stylesheet, after]);

describe("gzip around a part compressed once (ADR 128)", () => {
  it("reads as the whole page in one gzip member, at every level", () => {
    expect(stylesheet.length).toBeGreaterThan(32 * 1024);
    const part = compressPart(stylesheet);
    for (const level of [1, 3, 6, 9]) {
      expect(gunzipSync(gzipAround(before, part, after, level)).equals(page)).toBe(true);
    }
  });

  it("holds with nothing before or after the part", () => {
    const part = compressPart(stylesheet);
    expect(gunzipSync(gzipAround(Buffer.alloc(0), part, Buffer.alloc(0), 1)).equals(stylesheet)).toBe(true);
    expect(gunzipSync(gzipAround(Buffer.alloc(0), part, after, 1)).equals(Buffer.concat([stylesheet, after]))).toBe(
      true,
    );
  });

  it("is no larger than brotli at a miss's level over the whole page, and much faster to make", () => {
    const part = compressPart(stylesheet);
    const spliced = gzipAround(before, part, after, 1);
    expect(spliced.length).toBeLessThan(encode(page, "gzip", "busy").length);
    // Sizes only: speed is the benchmark's business (docs/performance.md).
    expect(spliced.length).toBeLessThan(encode(page, "br", "busy").length * 1.1);
  });
});

describe("a miss's first encoding (ADR 128)", () => {
  const at = before.length;
  const part = compressPart(stylesheet);

  it("is gzip around the stylesheet for a client that takes gzip, even one that prefers brotli", () => {
    const made = encodeMiss(page, acceptedEncodings("gzip, deflate, br, zstd"), "busy", { at, part });
    expect(made.encoding).toBe("gzip");
    expect(gunzipSync(made.body).equals(page)).toBe(true);
  });

  it("is the preferred encoding for a client without gzip, for a page without the part, or when the part is not where said", () => {
    const brOnly = encodeMiss(page, acceptedEncodings("br"), "busy", { at, part });
    expect(brOnly.encoding).toBe("br");
    expect(brotliDecompressSync(brOnly.body).equals(page)).toBe(true);
    expect(encodeMiss(page, acceptedEncodings("gzip, br"), "fast").encoding).toBe("br");
    const moved = encodeMiss(page, acceptedEncodings("gzip, br"), "fast", { at: at + 1, part });
    expect(moved.encoding).toBe("br");
    expect(brotliDecompressSync(moved.body).equals(page)).toBe(true);
    const plain = encodeMiss(page, acceptedEncodings(undefined), "fast", { at, part });
    expect(plain).toEqual({ encoding: "identity", body: page });
  });
});
