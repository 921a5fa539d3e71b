import { AsyncLocalStorage } from "node:async_hooks";
import { currentTime } from "~/lib/clock";
import type { CompressedPart } from "./spliced-gzip.server";

/**
 * What a render learned that the page cache needs (ADR 012): which listing a
 * page is about (to count its view and to invalidate it alone) and the
 * earliest moment a listing it shows stops being public (listings expire
 * without any write, so the entry must not outlive that moment). Model code
 * notes these while it reads; outside a page render the notes go nowhere.
 */
export type RenderHints = {
  listingId?: number;
  expiresAt?: number;
  /** Set by server/pages.ts for every page: rendered to the end into one buffer, not streamed (ADRs 121, 138). */
  whole?: boolean;
  /**
   * Set by the render of a page read whole: where in its bytes the inline stylesheet is, and
   * that text compressed once, so the page cache compresses only the rest (ADR 128).
   */
  stylesheet?: { at: number; part: CompressedPart };
};

const current = new AsyncLocalStorage<RenderHints>();

export function withRenderHints<T>(hints: RenderHints, render: () => T): T {
  return current.run(hints, render);
}

/** A public listing this render shows: the page is stale once it expires. */
export function noteShownListing(expiresAt: string): void {
  const hints = current.getStore();
  if (!hints) return;
  // Listings expire on the app's clock (NOW may move it); cache entries live in real time.
  const inMs = Date.parse(expiresAt) - currentTime().getTime();
  // One already past its expiry is shown as expired, and stays so.
  if (!(inMs > 0)) return;
  const at = Date.now() + inMs;
  if (hints.expiresAt === undefined || at < hints.expiresAt) hints.expiresAt = at;
}

/** The listing this page is about (a listing page, or one ad in the API). */
export function notePageListing(listingId: number): void {
  const hints = current.getStore();
  if (hints) hints.listingId = listingId;
}

/** This render's hints, to be written to later (when its bytes are done), or undefined outside a page render. */
export function currentRenderHints(): RenderHints | undefined {
  return current.getStore();
}
