import type { DB } from "~/db/db.server";
import { isPostgres } from "~/db/search.server";
import { currentTime } from "~/lib/clock";
import { LISTED_STATUS } from "~/schemas/listing-status";
import { randomChunk } from "~/security/random.server";
import { newRandomId } from "~/security/visitor-id.server";
import { inTransaction } from "./in-transaction.server";

/**
 * Shortlists (ADR 054): one per browser, kept under the salted hash
 * of its signed visitor id (`visitorKey`), so no account is needed and no
 * other browser can read or change it. Places stay in the list whatever
 * becomes of the listing until their visitor removes them.
 */
export const SHORTLIST_MAX = 50;

export type SaveOutcome =
  /** `added`: the place was not in the list before (a save its owner's figures count, ADR 089). */
  | { ok: true; ids: number[]; added: boolean }
  /** The list holds SHORTLIST_MAX places already. */
  | { ok: false; code: "full" }
  /** The listing is not public now (expired, hidden, deleted, unknown): it cannot be saved. */
  | { ok: false; code: "unavailable" }
  /** A new list was needed and `mayCreate` said no (too many new lists from one address). */
  | { ok: false; code: "refused" };

/** The ids of a visitor's saved places, first saved first; empty when they have no list. */
export async function shortlistIds(db: DB, visitorKey: string): Promise<number[]> {
  return itemIds(db, "visitorKey", visitorKey);
}

/** The places of the list found by its owner's key or its shared link's code, first saved first. */
async function itemIds(db: DB, by: "visitorKey" | "shareCode", value: string): Promise<number[]> {
  const rows = await db
    .selectFrom("shortlist_items")
    .innerJoin("shortlists", "shortlists.id", "shortlist_items.shortlistId")
    .select("shortlist_items.listingId")
    .where(`shortlists.${by}`, "=", value)
    .orderBy("shortlist_items.addedAt")
    .orderBy("shortlist_items.listingId")
    .execute();
  return rows.map((row) => row.listingId);
}

/** Whether a listing may be saved now: public, like the pages that show a Save button. */
async function isSavable(db: DB, listingId: number, now: string): Promise<boolean> {
  const row = await db
    .selectFrom("listings")
    .select("id")
    .where("id", "=", listingId)
    .where("status", "=", LISTED_STATUS)
    .where("expiresAt", ">", now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Adds a listing to the visitor's list (creating the list on the first save,
 * if `mayCreate` allows). Saving a place already in the list changes nothing
 * and is not refused, even when the list is full or the place has since gone.
 */
export async function saveToShortlist(
  db: DB,
  visitorKey: string,
  listingId: number,
  options: { mayCreate: () => Promise<boolean>; now?: Date },
): Promise<SaveOutcome> {
  const now = (options.now ?? currentTime()).toISOString();
  const existing = await db
    .selectFrom("shortlists")
    .select("id")
    .where("visitorKey", "=", visitorKey)
    .executeTakeFirst();
  if (!existing) {
    if (!(await isSavable(db, listingId, now))) return { ok: false, code: "unavailable" };
    if (!(await options.mayCreate())) return { ok: false, code: "refused" };
    await db
      .insertInto("shortlists")
      .values({ id: newRandomId(), visitorKey, shareCode: null, createdAt: now, updatedAt: now })
      // Two first saves at once from one browser: the second finds the first's list.
      .onConflict((oc) => oc.column("visitorKey").doNothing())
      .execute();
  }
  const outcome = await inTransaction(db, async (trx): Promise<SaveOutcome> => {
    // The list's row is locked on PostgreSQL so two saves at once cannot both see room for one more
    // (SQLite's transactions take the write lock when they begin: ADR 034).
    let query = trx.selectFrom("shortlists").select("id").where("visitorKey", "=", visitorKey);
    if (isPostgres(trx)) query = query.forUpdate();
    const list = await query.executeTakeFirstOrThrow();
    const items = await trx
      .selectFrom("shortlist_items")
      .select("listingId")
      .where("shortlistId", "=", list.id)
      .execute();
    if (items.some((item) => item.listingId === listingId)) return { ok: true, ids: [], added: false };
    if (items.length >= SHORTLIST_MAX) return { ok: false, code: "full" };
    if (!(await isSavable(trx, listingId, now))) return { ok: false, code: "unavailable" };
    await trx.insertInto("shortlist_items").values({ shortlistId: list.id, listingId, addedAt: now }).execute();
    await trx.updateTable("shortlists").set({ updatedAt: now }).where("id", "=", list.id).execute();
    return { ok: true, ids: [], added: true };
  });
  return outcome.ok ? { ...outcome, ids: await shortlistIds(db, visitorKey) } : outcome;
}

/** Takes a place out of the visitor's list (nothing happens when it is not in it); the ids left. */
export async function removeFromShortlist(
  db: DB,
  visitorKey: string,
  listingId: number,
  now = currentTime(),
): Promise<number[]> {
  const list = await db.selectFrom("shortlists").select("id").where("visitorKey", "=", visitorKey).executeTakeFirst();
  if (!list) return [];
  const removed = await db
    .deleteFrom("shortlist_items")
    .where("shortlistId", "=", list.id)
    .where("listingId", "=", listingId)
    .executeTakeFirst();
  if (removed.numDeletedRows > 0n)
    await db.updateTable("shortlists").set({ updatedAt: now.toISOString() }).where("id", "=", list.id).execute();
  return shortlistIds(db, visitorKey);
}

/** Letters and digits a shared link's code is made of: no look-alikes (0/o, 1/l/i), easy to read out. */
const CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
/** 12 characters of 31: about 59 bits, far beyond guessing a link by trying codes. */
const CODE_LENGTH = 12;
export const SHARE_CODE_PATTERN = /^[a-hj-km-np-z2-9]{12}$/;

function newShareCode(): string {
  const bytes = randomChunk(CODE_LENGTH * 2);
  let code = "";
  // Two bytes per character keep the modulo's bias below 0.05%.
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[bytes.readUInt16BE(i * 2) % CODE_ALPHABET.length];
  return code;
}

/** The code of the visitor's shared link, made on the first share (point 2); null when they have no list. */
export async function shareShortlist(db: DB, visitorKey: string, now = currentTime()): Promise<string | null> {
  const list = await db
    .selectFrom("shortlists")
    .select(["id", "shareCode"])
    .where("visitorKey", "=", visitorKey)
    .executeTakeFirst();
  if (!list) return null;
  if (list.shareCode) return list.shareCode;
  const code = newShareCode();
  await db
    .updateTable("shortlists")
    .set({ shareCode: code, updatedAt: now.toISOString() })
    .where("id", "=", list.id)
    // Two shares at once: the first code stays.
    .where("shareCode", "is", null)
    .execute();
  return (await shareCodeOf(db, visitorKey)) ?? code;
}

/** The code of the visitor's shared link, or null while it is not shared. */
export async function shareCodeOf(db: DB, visitorKey: string): Promise<string | null> {
  const list = await db
    .selectFrom("shortlists")
    .select("shareCode")
    .where("visitorKey", "=", visitorKey)
    .executeTakeFirst();
  return list?.shareCode ?? null;
}

/** Stops sharing: the link answers 'no longer shared' from now on; sharing again makes a new one. */
export async function stopSharingShortlist(db: DB, visitorKey: string, now = currentTime()): Promise<void> {
  await db
    .updateTable("shortlists")
    .set({ shareCode: null, updatedAt: now.toISOString() })
    .where("visitorKey", "=", visitorKey)
    .execute();
}

/** The ids a shared link shows now (the list as its owner keeps it), or null for a code not (or no longer) shared. */
export async function sharedShortlistIds(db: DB, code: string): Promise<number[] | null> {
  if (!SHARE_CODE_PATTERN.test(code)) return null;
  const list = await db.selectFrom("shortlists").select("id").where("shareCode", "=", code).executeTakeFirst();
  return list ? itemIds(db, "shareCode", code) : null;
}
