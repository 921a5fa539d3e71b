// Pages rendered by one worker, handed to the other workers of the machine
// (ADR 061). No imports but Node's and types: the primary (server/cluster.ts)
// runs this file as it is with Node's type stripping, outside the app's build.
import cluster from "node:cluster";
import type { CachedPage } from "../app/cache/page-cache.server";

/**
 * A page a worker rendered and kept, with the newest page invalidation it had
 * read when the render began (`seen`): the page shows every change up to it.
 */
export type SharedPage = { type: "bodima:page"; entry: CachedPage; seen: number };

export const isSharedPage = (m: unknown): m is SharedPage => (m as SharedPage | null)?.type === "bodima:page";

/** A worker's end of the channel (`process` in a cluster worker). */
export type SharingChannel = {
  send?: (message: SharedPage) => unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
};

/** A worker as the primary sees it. */
export type SharingWorker = {
  send(message: SharedPage): unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
  isConnected(): boolean;
};

/**
 * In the primary: each page one worker shares goes to every other worker
 * connected now. `others(from)` lists them.
 */
export function relaySharedPages(from: SharingWorker, others: () => readonly SharingWorker[]): void {
  from.on("message", (message) => {
    if (!isSharedPage(message)) return;
    for (const worker of others()) if (worker !== from && worker.isConnected()) worker.send(message);
  });
}

/**
 * What a worker does with a page another worker rendered. Kept ("kept") when every invalidation
 * this worker has read (up to `local.seen`) is one the render already saw. When the ones it did not
 * see only moved view counts (the newest that changed more, `local.changed`, it saw), kept with its
 * view count due ("views-due": ADR 113): refusing it made the worker render a page that was right
 * in all but a count. Otherwise a later write may have changed what the page shows: refused, and
 * this worker renders it itself when asked. Invalidations read after keeping it apply to it as to
 * the worker's own pages.
 */
export function acceptsSharedPage(
  local: { seen: number; changed: number },
  shared: Pick<SharedPage, "seen">,
): "kept" | "views-due" | "refused" {
  if (local.seen <= shared.seen) return "kept";
  return local.changed <= shared.seen ? "views-due" : "refused";
}

/** No one to share with: a lone process, even one whose parent gave it an IPC channel (a process manager's fork). */
const ALONE: SharingChannel = { on: () => undefined };

/**
 * The worker's side: `share` sends a page to the primary (nothing outside a cluster),
 * `receive` hands each page from the other workers to `keep`, its bodies as
 * Buffers again (structured clone gives plain Uint8Arrays).
 */
export function pageSharing(channel: SharingChannel = cluster.isWorker ? (process as SharingChannel) : ALONE) {
  return {
    enabled: typeof channel.send === "function",
    share(entry: CachedPage, seen: number): void {
      channel.send?.({ type: "bodima:page", entry, seen });
    },
    receive(keep: (entry: CachedPage, seen: number) => void): void {
      channel.on("message", (message) => {
        if (!isSharedPage(message)) return;
        const { entry, seen } = message;
        const variants: CachedPage["variants"] = {};
        for (const [encoding, body] of Object.entries(entry.variants))
          if (body) variants[encoding as keyof CachedPage["variants"]] = asBuffer(body);
        keep({ ...entry, variants }, seen);
      });
    },
  };
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
