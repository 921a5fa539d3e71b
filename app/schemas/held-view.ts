import type { HoldSignal } from "./review-hold";

/**
 * What the 'Held for review' screen shows (types only): built by
 * app/models/held-queue.server.ts, shown by app/components/admin/held-queue.tsx.
 */

/** A photo as the moderator's screen fetches it (the photo route lets moderators see unpublished ones). */
export type HeldPhoto = { id: string; position: number; url: string; width: number; height: number };

/** A listing's text, rent and photos: the held one, or one a signal compares it with. */
export type HeldListingView = {
  id: number;
  title: string;
  description: string;
  price: number;
  createdAt: string;
  photos: HeldPhoto[];
};

export type HeldItem = {
  listing: HeldListingView & { ownerName: string; ownerEmail: string };
  heldAt: string;
  signals: HoldSignal[];
  /** The other listings the photo and description signals name, by id (absent: deleted since). */
  others: Record<number, HeldListingView>;
};

/** Time from a hold to its decision over the last 7 days (from the audit log); null with no decision. */
export type HeldWaitStats = { decisions: number; medianMs: number | null; p90Ms: number | null };

export type HeldQueue = { items: HeldItem[]; openCount: number; wait: HeldWaitStats };
