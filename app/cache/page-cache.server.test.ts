import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { markRequestEnd, markRequestStart } from "~/lib/idle.server";
import { variedCards } from "../../tests/varied-cards";
import {
  type CachedPage,
  compressionsSettled,
  compressionsWaiting,
  createPageCache,
  KEEP_WAITING,
  type PageCache,
  STALE_SERVE_MS,
  sendCachedPage,
  VIEW_COUNT_BUSY_LAG_MS,
  VIEW_COUNT_LAG_MS,
  variantOf,
} from "./page-cache.server";
import { encode, etagMatches, etagOf, preferredEncoding } from "./page-encoding.server";
import { compressPart, gzipAround } from "./spliced-gzip.server";

function page(key: string, overrides: Partial<CachedPage> = {}): CachedPage {
  const body = Buffer.from(`<p>${key}</p>`.repeat(20));
  return {
    key,
    kind: "list",
    headers: [["content-type", "text/html"]],
    etag: etagOf(body),
    variants: { gzip: encode(body, "gzip") },
    expiresAt: Date.now() + 60_000,
    bytes: 100,
    ...overrides,
  };
}

describe("the page cache store", () => {
  it("answers a stored page until it expires", () => {
    const cache = createPageCache({ maxBytes: 10_000 });
    expect(cache.set(page("/browse", { expiresAt: 2_000 }), cache.epoch)).toBe(true);
    expect(cache.get("/browse", 1_000)?.key).toBe("/browse");
    expect(cache.get("/browse", 2_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps within its byte budget, dropping the least recently used first", () => {
    const cache = createPageCache({ maxBytes: 300 });
    for (const key of ["/a", "/b", "/c"]) cache.set(page(key), cache.epoch);
    cache.get("/a");
    cache.set(page("/d"), cache.epoch);
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.get("/a")).toBeDefined();
    expect(cache.get("/d")).toBeDefined();
    expect(cache.bytes).toBeLessThanOrEqual(300);
  });

  it("keeps a page asked for all along while many newer ones push the others out", () => {
    const cache = createPageCache({ maxBytes: 100 * 100 });
    for (let i = 0; i < 100; i++) cache.set(page(`/p${i}`), cache.epoch);
    cache.get("/p0");
    const moved: (number | undefined)[] = [];
    for (let i = 100; i < 400; i++) {
      cache.set(page(`/p${i}`), cache.epoch);
      moved.push(cache.get("/p0")?.movedAt);
    }
    expect(cache.get("/p0")).toBeDefined();
    expect(cache.get("/p1")).toBeUndefined();
    expect(cache.get("/p299")).toBeUndefined();
    expect(cache.get("/p399")).toBeDefined();
    expect(cache.size).toBe(100);
    // Moved to the recent end only now and then, not at every hit.
    expect(new Set(moved).size).toBeLessThan(moved.length / 10);
  });

  it("stores nothing when turned off (PAGE_CACHE_MB=0)", () => {
    const cache = createPageCache({ maxBytes: 0 });
    expect(cache.enabled).toBe(false);
    expect(cache.set(page("/browse"), cache.epoch)).toBe(false);
  });

  it("makes every list stale and drops the changed listing's pages on a listing write, keeping the rest", () => {
    const cache = createPageCache({ maxBytes: 10_000 });
    cache.set(page("/browse"), cache.epoch);
    cache.set(page("/terms", { kind: "fixed" }), cache.epoch);
    cache.set(page("/listing/a-1001", { kind: "listing", listingId: 1001 }), cache.epoch);
    cache.set(page("/listing/b-1002", { kind: "listing", listingId: 1002 }), cache.epoch);
    const at = Date.now();
    cache.invalidate({ all: false, listingIds: [1001], viewedListingIds: [] }, at);
    expect(cache.get("/browse", at)).toBeUndefined();
    expect(cache.get("/listing/a-1001", at)).toBeUndefined();
    expect(cache.stale("/listing/a-1001", at)).toBeUndefined();
    expect(cache.get("/listing/b-1002", at)).toBeDefined();
    // A page that shows no listing is not touched by a listing write.
    expect(cache.get("/terms", at)).toBeDefined();
    // The list answers only as a stale copy, and only for a little while (ADR 108).
    expect(cache.stale("/browse", at + STALE_SERVE_MS - 1)?.key).toBe("/browse");
    expect(cache.stale("/browse", at + STALE_SERVE_MS)).toBeUndefined();
    // Past that, the copy is dropped when next asked for: its bytes go to pages that can answer.
    expect(cache.get("/browse", at + STALE_SERVE_MS)).toBeUndefined();
    expect(cache.size).toBe(2);
    // A second write keeps the first one's time: the copy is as old as the oldest change it misses.
    cache.set(page("/about"), cache.epoch);
    cache.invalidate({ all: false, listingIds: [1002], viewedListingIds: [] }, at + 100);
    cache.invalidate({ all: false, listingIds: [1002], viewedListingIds: [] }, at + 400);
    expect(cache.stale("/about", at + 100 + STALE_SERVE_MS - 1)).toBeDefined();
    expect(cache.stale("/about", at + 100 + STALE_SERVE_MS)).toBeUndefined();
    cache.invalidate({ all: true, listingIds: [], viewedListingIds: [] });
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it("lets only the listing's own pages age out within seconds when just its view count changed", () => {
    const cache = createPageCache({ maxBytes: 10_000, busy: () => false });
    cache.set(page("/browse"), cache.epoch);
    cache.set(page("/listing/a-1001", { kind: "listing", listingId: 1001 }), cache.epoch);
    cache.set(page("/listing/b-1002", { kind: "listing", listingId: 1002 }), cache.epoch);
    const renderStarted = cache.epoch;
    const at = Date.now();
    cache.invalidate({ all: false, listingIds: [], viewedListingIds: [1001] }, at);
    expect(cache.get("/listing/a-1001", at + VIEW_COUNT_LAG_MS - 1)).toBeDefined();
    expect(cache.get("/listing/a-1001", at + VIEW_COUNT_LAG_MS)).toBeUndefined();
    expect(cache.get("/browse", at + VIEW_COUNT_LAG_MS)).toBeDefined();
    expect(cache.get("/listing/b-1002", at + VIEW_COUNT_LAG_MS)).toBeDefined();
    // A count a second old is fine: renders under way are still stored.
    expect(cache.set(page("/about"), renderStarted)).toBe(true);
  });

  it("keeps serving a page whose newer view count is due while visitors keep the worker busy, for a minute at most", () => {
    let busy = true;
    const cache = createPageCache({ maxBytes: 10_000, busy: () => busy });
    const at = Date.now();
    const later = { kind: "listing" as const, listingId: 1001, expiresAt: at + 10 * VIEW_COUNT_BUSY_LAG_MS };
    const listing = page("/listing/a-1001", later);
    cache.set(listing, cache.epoch);
    cache.invalidate({ all: false, listingIds: [], viewedListingIds: [1001] }, at);
    // A later batch of views does not put the render off: the first one's lag counts.
    cache.invalidate({ all: false, listingIds: [], viewedListingIds: [1001] }, at + 2_000);
    expect(cache.get("/listing/a-1001", at + VIEW_COUNT_LAG_MS)).toBe(listing);
    expect(cache.get("/listing/a-1001", at + VIEW_COUNT_LAG_MS + VIEW_COUNT_BUSY_LAG_MS - 1)).toBe(listing);
    expect(cache.get("/listing/a-1001", at + VIEW_COUNT_LAG_MS + VIEW_COUNT_BUSY_LAG_MS)).toBeUndefined();
    expect(cache.dropped.expired).toBe(1);

    // Rendered again: the same while busy, and the moment the worker has time, it goes.
    const again = page("/listing/a-1001", later);
    cache.set(again, cache.epoch);
    cache.invalidate({ all: false, listingIds: [], viewedListingIds: [1001] }, at);
    expect(cache.get("/listing/a-1001", at + VIEW_COUNT_LAG_MS + 10_000)).toBe(again);
    busy = false;
    expect(cache.get("/listing/a-1001", at + VIEW_COUNT_LAG_MS + 10_001)).toBeUndefined();
    // A write to the listing itself never waits.
    busy = true;
    cache.set(page("/listing/a-1001", later), cache.epoch);
    cache.invalidate({ all: false, listingIds: [1001], viewedListingIds: [] }, at);
    expect(cache.get("/listing/a-1001", at)).toBeUndefined();
  });

  it("counts the pages it drops by why, and not a page replaced by its newer copy", () => {
    const cache = createPageCache({ maxBytes: 300, busy: () => false });
    const at = Date.now();
    for (const key of ["/a", "/b", "/c", "/d"]) cache.set(page(key), cache.epoch);
    cache.set(page("/d"), cache.epoch);
    expect(cache.dropped).toEqual({ evicted: 1, expired: 0, invalidated: 0, stale: 0 });
    cache.set(page("/listing/x-1001", { kind: "listing", listingId: 1001 }), cache.epoch);
    cache.set(page("/listing/y-1002", { kind: "listing", listingId: 1002 }), cache.epoch);
    // Room for three: /b and /c went to fit them.
    expect(cache.dropped.evicted).toBe(3);
    cache.invalidate({ all: false, listingIds: [1001], viewedListingIds: [1002] }, at);
    expect(cache.dropped.invalidated).toBe(1);
    // /d is a list, stale from the write; past its moment it is dropped when asked for.
    expect(cache.get("/d", at + STALE_SERVE_MS)).toBeUndefined();
    expect(cache.dropped.stale).toBe(1);
    // The other listing's view count moved: it expires when its lag has run out.
    expect(cache.get("/listing/y-1002", at + VIEW_COUNT_LAG_MS)).toBeUndefined();
    expect(cache.dropped.expired).toBe(1);
    cache.set(page("/terms", { kind: "fixed" }), cache.epoch);
    cache.invalidate({ all: true, listingIds: [], viewedListingIds: [] });
    expect(cache.dropped).toEqual({ evicted: 3, expired: 1, invalidated: 2, stale: 1 });
  });

  it("keeps a list whose render began before a write only as a stale copy from that write, and no listing page", () => {
    const cache = createPageCache({ maxBytes: 10_000 });
    const renderStarted = cache.epoch;
    const at = Date.now();
    cache.invalidate({ all: false, listingIds: [7], viewedListingIds: [] }, at);
    cache.invalidate({ all: false, listingIds: [8], viewedListingIds: [] }, at + 200);
    expect(cache.set(page("/browse"), renderStarted)).toBe(true);
    expect(cache.get("/browse", at + 300)).toBeUndefined();
    expect(cache.stale("/browse", at + STALE_SERVE_MS - 1)).toBeDefined();
    expect(cache.stale("/browse", at + STALE_SERVE_MS)).toBeUndefined();
    // A listing's page may show the very listing that changed: not stored.
    expect(cache.set(page("/listing/g-7", { kind: "listing", listingId: 7 }), renderStarted)).toBe(false);
    // A page that shows no listing is stored as it is.
    expect(cache.set(page("/privacy", { kind: "fixed" }), renderStarted)).toBe(true);
    expect(cache.get("/privacy", at + 300)).toBeDefined();
  });

  it("never lets an older render replace a fresher copy, and stores nothing begun before a change to everything", () => {
    const cache = createPageCache({ maxBytes: 10_000 });
    const older = cache.epoch;
    cache.invalidate({ all: false, listingIds: [7], viewedListingIds: [] });
    const fresh = page("/browse");
    expect(cache.set(fresh, cache.epoch)).toBe(true);
    expect(cache.set(page("/browse"), older)).toBe(false);
    expect(cache.get("/browse")).toBe(fresh);
    const beforeAll = cache.epoch;
    cache.invalidate({ all: true, listingIds: [], viewedListingIds: [] });
    expect(cache.set(page("/browse"), beforeAll)).toBe(false);
    expect(cache.set(page("/terms", { kind: "fixed" }), beforeAll)).toBe(false);
  });

  it("says a page was compressed smaller only while it is still stored (ADR 061)", () => {
    const kept: string[] = [];
    const cache = createPageCache({ maxBytes: 10_000, onKept: (entry) => kept.push(entry.key) });
    const held = page("/browse");
    const dropped = page("/browse?page=2");
    cache.set(held, cache.epoch);
    cache.set(dropped, cache.epoch);
    cache.invalidate({ all: true, listingIds: [], viewedListingIds: [] });
    cache.set(held, cache.epoch);
    cache.kept(held);
    cache.kept(dropped);
    expect(kept).toEqual(["/browse"]);
  });

  it("makes another encoding from the stored one when first asked, and counts its bytes", () => {
    const cache = createPageCache({ maxBytes: 10_000 });
    const entry = page("/about");
    cache.set(entry, cache.epoch);
    const before = cache.bytes;
    const plain = variantOf(cache, entry, "identity");
    expect(plain.toString()).toBe(gunzipSync(entry.variants.gzip!).toString());
    expect(cache.bytes).toBe(before + plain.length);
  });

  it("answers a miss's fast compression at first, and the smaller kept one after its first hit (ADR 045)", async () => {
    // A page like a browse page: many cards, words repeating but not in a pattern.
    const body = Buffer.from(`<ul>${variedCards(7, 2_000)}</ul>`);
    const kept: CachedPage[] = [];
    const cache = createPageCache({ maxBytes: 10_000_000, onKept: (done) => kept.push(done) });
    const fast = encode(body, "br", "fast");
    const entry = page("/browse", { variants: { br: fast }, draft: true, bytes: fast.length + 7 });
    cache.set(entry, cache.epoch);
    const server = http.createServer((req, res) =>
      sendCachedPage(req, res, cache, entry, { headers: {}, status: "HIT" }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const fetchBody = async () => {
      const response = await fetch(`http://127.0.0.1:${port}/browse`, { headers: { "accept-encoding": "br" } });
      return { length: Number(response.headers.get("content-length")), text: await response.text() };
    };
    try {
      const first = await fetchBody();
      expect(first.length).toBe(fast.length);
      await compressionsSettled();
      const second = await fetchBody();
      expect(second.length).toBe(encode(body, "br").length);
      expect(second.length).toBeLessThan(first.length * 0.95);
      expect(second.text).toBe(body.toString());
      expect(entry.draft).toBe(false);
      expect(cache.bytes).toBe(second.length + 7);
      // Told once, with the smaller bytes, so the other workers need not compress it again (ADR 061).
      expect(kept).toEqual([entry]);
      expect(kept[0].variants.br?.length).toBe(second.length);
    } finally {
      server.close();
    }
  });
});

describe("a miss kept as gzip around its stylesheet (ADR 128)", () => {
  it("answers brotli readers that gzip until it is compressed again, then brotli, never making brotli on the spot", async () => {
    const body = Buffer.from(`<style>${variedCards(3, 1_500)}</style><ul>${variedCards(7, 500)}</ul>`);
    const at = "<style>".length;
    const part = compressPart(body.subarray(at, body.indexOf("</style>")));
    const spliced = gzipAround(body.subarray(0, at), part, body.subarray(at + part.raw.length), 1);
    const entry = page("/browse", { variants: { gzip: spliced }, draft: true, draftFor: "br", bytes: spliced.length });
    const cache = createPageCache({ maxBytes: 10_000_000 });
    cache.set(entry, cache.epoch);
    const server = http.createServer((req, res) =>
      sendCachedPage(req, res, cache, entry, { headers: {}, status: "HIT" }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const ask = async (acceptEncoding: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/browse`, {
        headers: { "accept-encoding": acceptEncoding },
      });
      return { encoding: response.headers.get("content-encoding"), text: await response.text() };
    };
    try {
      markRequestStart();
      try {
        expect(await ask("gzip, deflate, br")).toEqual({ encoding: "gzip", text: body.toString() });
        expect(entry.variants.br).toBeUndefined();
      } finally {
        markRequestEnd();
      }
      // A reader that takes nothing compressed gets its own copy, made from the gzip, and keeps it.
      expect(await ask("identity")).toEqual({ encoding: null, text: body.toString() });
      await compressionsSettled();
      expect(await ask("gzip, deflate, br")).toEqual({ encoding: "br", text: body.toString() });
      expect(entry.variants.gzip).toBeUndefined();
      expect(entry.draftFor).toBeUndefined();
      expect(Object.keys(entry.variants).sort()).toEqual(["br", "identity"]);
      expect(cache.bytes).toBe(entry.variants.br!.length + body.length);
      expect(entry.variants.br!.length).toBeLessThan(spliced.length);
    } finally {
      server.close();
    }
  });
});

describe("compressing pages smaller yields to requests (ADR 095)", () => {
  const hit = (cache: PageCache, entry: CachedPage) =>
    sendCachedPage(
      { method: "GET", headers: { "accept-encoding": "br" } } as IncomingMessage,
      { writeHead: () => undefined, end: () => undefined } as unknown as ServerResponse,
      cache,
      entry,
      { headers: {}, status: "HIT" },
    );
  const draft = (key: string) => {
    const fast = encode(Buffer.from(`<ul>${key}${variedCards(key.length, 100)}</ul>`), "br", "fast");
    return page(key, { variants: { br: fast }, draft: true, bytes: fast.length });
  };

  it("compresses no page while a request is under way, and each one once the worker is idle", async () => {
    const cache = createPageCache({ maxBytes: 10_000_000 });
    const entry = draft("/browse?page=2");
    const fast = entry.variants.br;
    cache.set(entry, cache.epoch);
    markRequestStart();
    try {
      hit(cache, entry);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(entry.variants.br).toBe(fast);
      expect(compressionsWaiting()).toBe(1);
    } finally {
      markRequestEnd();
    }
    await compressionsSettled();
    expect(compressionsWaiting()).toBe(0);
    expect(entry.variants.br?.length).toBeLessThan(fast?.length ?? 0);
  });

  it("leaves pages past the queue's cap as drafts, compressed on a later hit", async () => {
    const cache = createPageCache({ maxBytes: 100_000_000 });
    const entries = Array.from({ length: KEEP_WAITING + 1 }, (_, i) => draft(`/city/${i}`));
    for (const entry of entries) cache.set(entry, cache.epoch);
    markRequestStart();
    try {
      for (const entry of entries) hit(cache, entry);
      expect(compressionsWaiting()).toBe(KEEP_WAITING);
    } finally {
      markRequestEnd();
    }
    const last = entries[KEEP_WAITING];
    expect(last.draft).toBe(true);
    await compressionsSettled();
    const fast = last.variants.br;
    hit(cache, last);
    await compressionsSettled();
    expect(last.draft).toBe(false);
    expect(last.variants.br?.length).toBeLessThan(fast?.length ?? 0);
  });
});

describe("content negotiation and validators", () => {
  it("prefers brotli, then gzip, and honours q=0", () => {
    expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(preferredEncoding("gzip")).toBe("gzip");
    expect(preferredEncoding("br;q=0, gzip")).toBe("gzip");
    expect(preferredEncoding("identity")).toBe("identity");
    expect(preferredEncoding(undefined)).toBe("identity");
  });

  it("matches If-None-Match in lists and weak forms", () => {
    const etag = etagOf(Buffer.from("x"));
    expect(etagMatches(`"other", ${etag}`, etag)).toBe(true);
    expect(etagMatches(etag.replace(/^W\//, ""), etag)).toBe(true);
    expect(etagMatches(`"other"`, etag)).toBe(false);
    expect(etagMatches(undefined, etag)).toBe(false);
  });
});
