import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import type { CachedPage } from "../app/cache/page-cache.server";
import { acceptsSharedPage, pageSharing, relaySharedPages, type SharedPage, type SharingWorker } from "./page-sharing";

// ADR 061: the workers of a machine hand each other the pages they render.

// One expiry for every entry: two calls a millisecond apart must build equal pages.
const EXPIRES_AT = Date.now() + 60_000;

function entry(key: string): CachedPage {
  return {
    key,
    kind: "list",
    headers: [["content-type", "text/html"]],
    etag: 'W/"x"',
    variants: { br: Buffer.from("compressed") },
    expiresAt: EXPIRES_AT,
    bytes: 20,
  };
}

/** A worker as the primary sees it: what it was sent, and what it sends. */
function fakeWorker(connected = true) {
  const events = new EventEmitter();
  const received: SharedPage[] = [];
  const worker: SharingWorker & { received: SharedPage[]; says(m: unknown): void } = {
    received,
    send: (message) => received.push(message),
    on: (event, listener) => events.on(event, listener),
    isConnected: () => connected,
    says: (message) => events.emit("message", message),
  };
  return worker;
}

describe("sharing rendered pages between the workers of a machine", () => {
  it("keeps a page only when the render saw every invalidation this worker has applied", () => {
    // Rendered after invalidation 7 was read: it shows changes up to 7.
    expect(acceptsSharedPage({ seen: 7, changed: 7 }, { seen: 7 })).toBe("kept");
    // This worker is behind: changes 6 and 7 are already in the page, and dropping it again when they arrive is harmless.
    expect(acceptsSharedPage({ seen: 5, changed: 5 }, { seen: 7 })).toBe("kept");
    // This worker already dropped pages for change 8, which the render may not show: refused.
    expect(acceptsSharedPage({ seen: 8, changed: 8 }, { seen: 7 })).toBe("refused");
    expect(acceptsSharedPage({ seen: 9, changed: 8 }, { seen: 7 })).toBe("refused");
  });

  it("keeps a page the render made before views this worker has read, with its view count due (ADR 113)", () => {
    // Invalidations 8 and 9 only moved view counts; the last write this worker read was 6.
    expect(acceptsSharedPage({ seen: 9, changed: 6 }, { seen: 7 })).toBe("views-due");
    expect(acceptsSharedPage({ seen: 9, changed: 7 }, { seen: 7 })).toBe("views-due");
  });

  it("the primary passes a page to every other connected worker, never back to its sender", () => {
    const [a, b, c, gone] = [fakeWorker(), fakeWorker(), fakeWorker(), fakeWorker(false)];
    const all = [a, b, c, gone];
    for (const worker of all) relaySharedPages(worker, () => all);
    const shared: SharedPage = { type: "bodima:page", entry: entry("/browse"), seen: 3 };
    a.says(shared);
    a.says({ type: "bodima:ask", id: 1, topic: "metrics" });
    expect(a.received).toEqual([]);
    expect(b.received).toEqual([shared]);
    expect(c.received).toEqual([shared]);
    expect(gone.received).toEqual([]);
  });

  it("a worker sends what it kept, and gets others' pages back with Buffers for bodies", () => {
    const events = new EventEmitter();
    const sent: unknown[] = [];
    const sharing = pageSharing({ send: (m) => sent.push(m), on: (event, listener) => events.on(event, listener) });
    expect(sharing.enabled).toBe(true);
    sharing.share(entry("/about"), 4);
    expect(sent).toEqual([{ type: "bodima:page", entry: entry("/about"), seen: 4 }]);

    const kept: [CachedPage, number][] = [];
    sharing.receive((page, seen) => kept.push([page, seen]));
    // Structured clone (the cluster's "advanced" serialization) gives a plain Uint8Array.
    const bytes = new Uint8Array(Buffer.from("xxcompressedxx")).subarray(2, 12);
    events.emit("message", { type: "bodima:page", entry: { ...entry("/about"), variants: { br: bytes } }, seen: 9 });
    events.emit("message", { type: "bodima:answer", id: 1 });
    expect(kept).toHaveLength(1);
    const [page, seen] = kept[0];
    expect(seen).toBe(9);
    expect(Buffer.isBuffer(page.variants.br)).toBe(true);
    expect(page.variants.br?.toString()).toBe("compressed");
  });

  it("a process outside a cluster shares nothing", () => {
    const sharing = pageSharing({ on: () => undefined });
    expect(sharing.enabled).toBe(false);
    expect(() => sharing.share(entry("/"), 1)).not.toThrow();
    // Nor does one whose parent gave it an IPC channel (vitest's own worker here): only cluster workers share.
    expect(pageSharing().enabled).toBe(false);
  });
});
