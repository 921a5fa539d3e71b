import type { IncomingMessage, ServerResponse } from "node:http";
import { createIdleQueue, workerIsBusy } from "~/lib/idle.server";
import { cacheControlFor } from "~/security/private-cookies.server";
import type { PageChange } from "./invalidation.server";
import { type Accepted, acceptedEncodings, decode, type Encoding, encode, etagMatches } from "./page-encoding.server";
import type { PageKind } from "./page-key";

/**
 * The anonymous page cache (ADR 012): rendered public pages kept
 * compressed in memory, least recently used first out when the byte budget
 * (PAGE_CACHE_MB) is full. An entry is dropped when a write changes what it
 * shows (invalidate), when a listing it shows expires (expiresAt), and after
 * a short life in any case (views and counts on it age); a listing page whose
 * view count moved is rendered again a few seconds later (VIEW_COUNT_LAG_MS), or, while
 * visitors keep the worker busy, once they let it (at most VIEW_COUNT_BUSY_LAG_MS: ADR 113).
 */

/**
 * Why a page left the cache: pushed out to fit PAGE_CACHE_MB (evicted), its time was up (expired: a
 * listing it shows expired, its short life or a view count's lag ran out), a write changed it
 * (invalidated), or a list's moment as a stale copy passed (stale).
 */
export type DropReason = "evicted" | "expired" | "invalidated" | "stale";

export type CachedPage = {
  key: string;
  kind: PageKind;
  /** The listing the page is about (listing pages and one ad in the API). */
  listingId?: number;
  /**
   * The page differs with data saver (ADR 090; its key says which copy this is): Vary names
   * Save-Data and Cookie, so no shared cache or browser hands one copy to the other reader.
   */
  saverVaries?: boolean;
  /** Headers of the rendered response worth keeping (Content-Type, the CSP with inline hashes...). */
  headers: [string, string][];
  etag: string;
  /** When the page was rendered, in whole seconds (ms since 1970): its Last-Modified, for crawlers that revalidate by date. */
  modifiedAt?: number;
  variants: Partial<Record<Encoding, Buffer>>;
  /**
   * The variants were compressed at the fast level of a miss (`encode(…, "fast")`):
   * the first hit compresses them again, smaller, after answering.
   */
  draft?: boolean;
  /**
   * The encoding the first reader preferred, when the draft was kept in another: gzip around
   * the stylesheet compressed once, for a client that prefers brotli (ADR 128). Until the
   * draft is compressed again (into this encoding), such clients get the gzip.
   */
  draftFor?: Encoding;
  /** Date.now() after which the entry is not served. */
  expiresAt: number;
  /** Date.now() from which the listing's newer view count is worth a render, when the worker is not busy (ADR 113). */
  viewsDueAt?: number;
  bytes: number;
  /** When the holding cache last moved it to the recent end (its own count of moves; set by the cache). */
  movedAt?: number;
  /**
   * A list a listing write may have changed, since this moment (Date.now()): no longer a hit, but
   * for STALE_SERVE_MS it answers the requests that arrive while one of them renders it afresh (ADR 108).
   */
  staleAt?: number;
};

/**
 * How long an entry lives at most. Writes and view counts invalidate pages
 * at once; this only bounds how long a count may lag after a listing expires
 * on a page that did not show it (expiry is time, not a write: ADR 012).
 */
export const MAX_AGE_MS = 300_000;

/**
 * A listing page whose only change is its view count is served this much
 * longer, then rendered again when the worker is not busy: a popular listing's
 * own views (flushed every second) would otherwise re-render its page every
 * second, and the count a visitor sees is still a few seconds old on a quiet
 * site, at most about a minute under load (ADRs 012, 113; docs/caching.md).
 */
export const VIEW_COUNT_LAG_MS = 3_000;

/**
 * While visitors keep the worker busy, a newer view count is no reason to render a page (no visitor
 * asked for it; ADR 113): the page is served with the count it has for at most this much longer.
 */
export const VIEW_COUNT_BUSY_LAG_MS = 60_000;

/**
 * A listing page whose view count may have moved: rendered again VIEW_COUNT_LAG_MS on, when the
 * worker has time (ADR 113). The first batch of views counts; a later one does not put it off.
 */
export function markViewsDue(entry: CachedPage, now = Date.now()): void {
  if (entry.kind === "listing") entry.viewsDueAt ??= now + VIEW_COUNT_LAG_MS;
}

/**
 * How long after a write a list it may have changed still answers the requests that come while
 * the first one renders it again (ADR 108). With the watchers' quarter second to read the write,
 * a visitor sees it within a second (ADR 012): the rule the stale copy may not outlast.
 */
export const STALE_SERVE_MS = 500;

/** How many recent listing writes' times the cache remembers, to date a render that overlapped one. */
const CHANGES_KEPT = 64;

/** Browsers revalidate every time (ETag); a CDN may keep a page for a second and refresh it in the background. */
export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=1, stale-while-revalidate=10";

export type PageCache = ReturnType<typeof createPageCache>;

export function createPageCache({
  maxBytes,
  onKept,
  busy = workerIsBusy,
}: {
  maxBytes: number;
  /** Called with a page just compressed again at the kept level, while still stored (ADR 061 shares it). */
  onKept?: (entry: CachedPage) => void;
  /** Whether visitors keep the worker busy: a newer view count then waits (ADR 113). */
  busy?: () => boolean;
}) {
  const entries = new Map<string, CachedPage>();
  let bytes = 0;
  /**
   * Bumped by every invalidation: a render that began before one may show the old state. A list is
   * then stored stale from the moment of the first write it may have missed; a listing's page is not stored.
   */
  let epoch = 0;
  /** The epoch of the last change to everything: a render that began before it is never stored. */
  let clearedEpoch = 0;
  /** When (Date.now()) each of the last CHANGES_KEPT listing-write epochs was read. */
  const changedAt = new Map<number, number>();
  /** Entries moved to the recent end so far (stored, or asked for after many others were). */
  let moves = 0;

  /** Pages dropped so far, by why (/metrics): a page replaced by its newer copy is not counted. */
  const dropped: Record<DropReason, number> = { evicted: 0, expired: 0, invalidated: 0, stale: 0 };

  function remove(key: string, reason?: DropReason) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
    if (reason) dropped[reason] += 1;
  }

  /** A listing page whose newer view count is due, and the worker has time to render it (or it waited long enough). */
  function viewsOutdated(entry: CachedPage, now: number): boolean {
    const due = entry.viewsDueAt;
    return due !== undefined && due <= now && (now - due >= VIEW_COUNT_BUSY_LAG_MS || !busy());
  }

  function evictToFit() {
    while (bytes > maxBytes && entries.size > 0) remove(entries.keys().next().value as string, "evicted");
  }

  return {
    enabled: maxBytes > 0,
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
    /** Pages dropped so far, by why: a copy of the counts. */
    get dropped() {
      return { ...dropped };
    },
    /** The most `bytes` may be (PAGE_CACHE_MB). */
    get maxBytes() {
      return maxBytes;
    },
    get epoch() {
      return epoch;
    },
    /** A stored page that shows the latest state read, or undefined. */
    get(key: string, now = Date.now()): CachedPage | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now || viewsOutdated(entry, now)) {
        remove(key, "expired");
        return undefined;
      }
      if (entry.staleAt !== undefined) {
        // Past its little while it answers nobody: its bytes go to pages that can.
        if (now - entry.staleAt >= STALE_SERVE_MS) remove(key, "stale");
        return undefined;
      }
      // Most recently used last; one moved among the last quarter of moves is far from the end
      // that is dropped, and is left where it is (a popular page is not moved at every hit).
      if (moves - (entry.movedAt ?? 0) > entries.size >> 2) {
        entries.delete(key);
        entries.set(key, entry);
        entry.movedAt = ++moves;
      }
      return entry;
    },
    /**
     * A list a write may have changed less than STALE_SERVE_MS ago: only for a request that came
     * while another renders it afresh (ADR 108).
     */
    stale(key: string, now = Date.now()): CachedPage | undefined {
      const entry = entries.get(key);
      if (entry?.staleAt === undefined || now - entry.staleAt >= STALE_SERVE_MS || entry.expiresAt <= now)
        return undefined;
      return entry;
    },
    /**
     * Stores an entry rendered since `renderEpoch`; false when it is not kept. A write that came in
     * between leaves a list stored stale (ADR 108), a listing's page not stored, a fixed page as it is.
     */
    set(entry: CachedPage, renderEpoch: number): boolean {
      if (!(maxBytes > 0) || renderEpoch < clearedEpoch || entry.bytes > maxBytes) return false;
      if (renderEpoch !== epoch && entry.kind !== "fixed") {
        const since = changedAt.get(renderEpoch + 1);
        if (entry.kind !== "list" || since === undefined) return false;
        // A newer copy (fresh, or stale since later) is worth more than this one.
        const held = entries.get(entry.key);
        if (held && (held.staleAt === undefined || held.staleAt >= since)) return false;
        entry.staleAt = since;
      }
      remove(entry.key);
      entries.set(entry.key, entry);
      entry.movedAt = ++moves;
      bytes += entry.bytes;
      evictToFit();
      return true;
    },
    /** Whether this very entry is still stored (not dropped or replaced). */
    holds(entry: CachedPage): boolean {
      return entries.get(entry.key) === entry;
    },
    /** A draft page was compressed again at the kept level (keepAll). */
    kept(entry: CachedPage) {
      if (entries.get(entry.key) === entry) onKept?.(entry);
    },
    /** A variant made later (another encoding) counts towards the budget too. */
    grew(entry: CachedPage, added: number) {
      if (entries.get(entry.key) !== entry) return;
      entry.bytes += added;
      bytes += added;
      evictToFit();
    },
    invalidate(change: PageChange, now = Date.now()) {
      if (change.all) {
        epoch += 1;
        clearedEpoch = epoch;
        dropped.invalidated += entries.size;
        entries.clear();
        bytes = 0;
        return;
      }
      // A render under way may show the old listing; one that shows an old view count is fine to keep.
      if (change.listingIds.length > 0) {
        epoch += 1;
        changedAt.set(epoch, now);
        changedAt.delete(epoch - CHANGES_KEPT);
      }
      const changed = new Set(change.listingIds);
      const viewed = new Set(change.viewedListingIds);
      const lists = changed.size > 0;
      if (!lists && viewed.size === 0) return;
      for (const [key, entry] of entries) {
        const about = entry.kind === "listing" ? entry.listingId : undefined;
        // Any listing write can change any list (a new price enters a filter, a count moves): stale
        // from now on, the earliest write counting. A changed listing's own pages go at once.
        if (lists && entry.kind === "list") entry.staleAt ??= now;
        else if (about !== undefined && changed.has(about)) remove(key, "invalidated");
        else if (about !== undefined && viewed.has(about)) markViewsDue(entry, now);
      }
    },
  };
}

/**
 * Pages waiting to be compressed again (references to cached entries); past
 * this many a hit leaves its page a draft, and a later hit asks again. About
 * a second or two of an idle worker's time (brotli 5 takes about 1.4 ms on a
 * 100 KB page): a burst of first hits does not pile up work for later.
 */
export const KEEP_WAITING = 1_000;

/**
 * Draft pages to be compressed again at the kept level (ADR 045), one page per
 * turn of the event loop and only while the worker is idle (ADR 095): under
 * load a page stays a draft, served at the fast level, rather than take time
 * from the answers waiting. Answers under way keep the buffers they hold;
 * later hits get the smaller one.
 */
const keepQueue = createIdleQueue<{ cache: PageCache; entry: CachedPage }>({
  cap: KEEP_WAITING,
  run: ({ cache, entry }) => keepNow(cache, entry),
});

function keepLater(cache: PageCache, entry: CachedPage): void {
  if (keepQueue.offer({ cache, entry })) entry.draft = false;
}

function keepNow(cache: PageCache, entry: CachedPage): void {
  // An entry dropped from the cache meanwhile, or about to be rendered again, is not worth the work.
  if (!cache.holds(entry) || entry.staleAt !== undefined) return;
  const { gzip, ...others } = entry.variants;
  const { draftFor } = entry;
  if (draftFor !== undefined && draftFor !== "gzip" && gzip && !others[draftFor]) {
    // The gzip made for a miss gives way to the encoding its reader preferred (others made meanwhile stay).
    const kept = encode(decode(gzip, "gzip"), draftFor);
    cache.grew(entry, kept.length - gzip.length);
    entry.variants = { ...others, [draftFor]: kept };
    entry.draftFor = undefined;
    prepared.delete(entry);
    cache.kept(entry);
    return;
  }
  for (const [encoding, body] of Object.entries(entry.variants) as [Encoding, Buffer][]) {
    if (encoding === "identity") continue;
    const kept = encode(decode(body, encoding), encoding);
    entry.variants[encoding] = kept;
    cache.grew(entry, kept.length - body.length);
  }
  prepared.delete(entry);
  cache.kept(entry);
}

/** How many pages wait to be compressed again (/metrics). */
export function compressionsWaiting(): number {
  return keepQueue.waiting;
}

/** Settles when no page waits to be compressed again (tests). */
export function compressionsSettled(): Promise<void> {
  return keepQueue.settled();
}

/**
 * The encoding to answer a client in: the one it prefers, or, while the page is a draft kept in
 * gzip for clients that prefer brotli (ADR 128), that gzip to any of them who takes it, rather
 * than brotli made on the spot.
 */
function servedEncoding(entry: CachedPage, client: Accepted): Encoding {
  const { preferred } = client;
  if (entry.variants[preferred] || !client.gzip || !entry.variants.gzip) return preferred;
  return entry.draftFor === preferred ? "gzip" : preferred;
}

/** The entry's body in an encoding, made from another one the first time it is asked for. */
export function variantOf(cache: PageCache, entry: CachedPage, encoding: Encoding): Buffer {
  const have = entry.variants[encoding];
  if (have) return have;
  const [source, body] = Object.entries(entry.variants)[0] as [Encoding, Buffer];
  const made = encode(decode(body, source), encoding);
  entry.variants[encoding] = made;
  cache.grew(entry, made.length);
  return made;
}

/**
 * Whether the client already has this page: its ETag, or, from a client that sends no ETag
 * (many crawlers), a date at or after the page was rendered. An ETag wins over a date (RFC 9110 13.2.2).
 */
export function notModifiedFor(headers: IncomingMessage["headers"], entry: CachedPage): boolean {
  const ifNoneMatch = headers["if-none-match"];
  if (ifNoneMatch) return etagMatches(ifNoneMatch, entry.etag);
  const since = headers["if-modified-since"];
  if (!since || entry.modifiedAt === undefined) return false;
  const date = Date.parse(since);
  return Number.isFinite(date) && date >= entry.modifiedAt;
}

/** A hit's answer in one encoding, prepared the first time it is sent: its body and its headers as one flat list. */
type PreparedHit = { body: Buffer; head: (string | number)[]; notModified: (string | number)[] };

const prepared = new WeakMap<CachedPage, Partial<Record<Encoding, PreparedHit>>>();

/**
 * Every header of a cached page's answer, in the order they win: the security
 * headers every response carries, the page's Cache-Control, then the entry's
 * own (its CSP with the page's inline hashes; a route's own Cache-Control).
 */
function pageHeaders(
  entry: CachedPage,
  security: Record<string, string>,
  status: "HIT" | "MISS",
  encoding: Encoding | null,
  length: number | null,
): (string | number)[] {
  const merged = new Map<string, [string, string | number]>();
  const put = (name: string, value: string | number) => merged.set(name.toLowerCase(), [name, value]);
  for (const [name, value] of Object.entries(security)) put(name, value);
  // A route that says how long clients may keep its answer (the API, the sitemap) is taken at its word.
  put("Cache-Control", PUBLIC_CACHE_CONTROL);
  for (const [name, value] of entry.headers) put(name, value);
  put("Vary", entry.saverVaries ? "Accept-Encoding, Save-Data, Cookie" : "Accept-Encoding");
  put("ETag", entry.etag);
  if (entry.modifiedAt !== undefined) put("Last-Modified", new Date(entry.modifiedAt).toUTCString());
  put("X-Page-Cache", status);
  if (encoding && encoding !== "identity") put("Content-Encoding", encoding);
  if (length !== null) put("Content-Length", length);
  return [...merged.values()].flat();
}

/** The prepared answer to a hit in an encoding (the body made from another encoding the first time). */
function preparedHit(
  cache: PageCache,
  entry: CachedPage,
  encoding: Encoding,
  security: Record<string, string>,
): PreparedHit {
  let byEncoding = prepared.get(entry);
  if (!byEncoding) {
    byEncoding = {};
    prepared.set(entry, byEncoding);
  }
  const have = byEncoding[encoding];
  if (have) return have;
  const body = variantOf(cache, entry, encoding);
  const made = {
    body,
    head: pageHeaders(entry, security, "HIT", encoding, body.length),
    notModified: pageHeaders(entry, security, "HIT", null, null),
  };
  byEncoding[encoding] = made;
  return made;
}

/**
 * The flat header list with a response's own Set-Cookie lines (a view's
 * cookies) added, and then private: the body is everyone's, this answer is
 * one browser's (ADR 068).
 */
function withCookies(head: (string | number)[], cookies: readonly string[]): (string | number)[] {
  if (cookies.length === 0) return head;
  const all = head.slice();
  for (let i = 0; i < all.length; i += 2)
    if (String(all[i]).toLowerCase() === "cache-control") all[i + 1] = cacheControlFor(String(all[i + 1]), true);
  for (const cookie of cookies) all.push("Set-Cookie", cookie);
  return all;
}

/**
 * Writes a cached page (or 304 when the browser has it). `headers` are the
 * security headers every response carries; the entry's own (its CSP with the
 * page's inline hashes) come after them and win. A hit (served before Express,
 * on a response no one has touched) writes headers prepared once per entry and
 * encoding; a miss adds to what Express's middleware already set.
 */
export function sendCachedPage(
  req: IncomingMessage,
  res: ServerResponse,
  cache: PageCache,
  entry: CachedPage,
  options: { headers: Record<string, string>; cookies?: readonly string[]; status: "HIT" | "MISS" },
): void {
  const cookies = options.cookies ?? [];
  const encoding = servedEncoding(entry, acceptedEncodings(req.headers["accept-encoding"]));
  const notModified = notModifiedFor(req.headers, entry);
  if (options.status === "HIT") {
    const hit = preparedHit(cache, entry, encoding, options.headers);
    res.writeHead(notModified ? 304 : 200, withCookies(notModified ? hit.notModified : hit.head, cookies));
    res.end(notModified || req.method === "HEAD" ? undefined : hit.body);
    if (entry.draft) keepLater(cache, entry);
    return;
  }
  const body = notModified ? null : variantOf(cache, entry, encoding);
  const head = pageHeaders(entry, options.headers, "MISS", body ? encoding : null, body ? body.length : null);
  for (let i = 0; i < head.length; i += 2) res.setHeader(head[i] as string, head[i + 1]);
  for (const cookie of cookies) res.appendHeader("Set-Cookie", cookie);
  // A cookie set during the render (a refreshed or cleared session) counts too (ADR 068).
  if (res.hasHeader("set-cookie"))
    res.setHeader("Cache-Control", cacheControlFor(String(res.getHeader("cache-control") ?? ""), true));
  res.statusCode = notModified ? 304 : 200;
  res.end(body === null || req.method === "HEAD" ? undefined : body);
}
