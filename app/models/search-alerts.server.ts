import type { Selectable } from "kysely";
import type { DB } from "~/db/db.server";
import { lockName } from "~/db/locks.server";
import type { SearchAlertsTable } from "~/db/schema";
import { currentTime } from "~/lib/clock";
import { normalizeEmail } from "~/lib/email";
import { newAlertId } from "~/security/alert-token.server";
import { inTransaction } from "./in-transaction.server";
import { newestAdNumber } from "./listing-search.server";

/**
 * Search alerts by email (ADR 058): a saved browse search
 * whose new matches are emailed at most once a day. An alert is made
 * unconfirmed and nothing but its confirmation email goes to the address until
 * someone opens that email's link and presses Confirm (double opt-in); a
 * signed-in user's own address is confirmed by their account once the account
 * confirmed it (ADR 066).
 */
export type SearchAlert = Selectable<SearchAlertsTable>;

/** Alerts one address may have (waiting for confirmation or on). */
export const ALERTS_PER_ADDRESS = 10;
/** An alert nobody confirmed is deleted after this many days, and its link with it. */
export const UNCONFIRMED_ALERT_DAYS = 7;
/** A stopped alert can be turned back on from its page for this many days, then it is deleted. */
export const STOPPED_ALERT_DAYS = 7;
/** At most one email per alert in this time. */
export const ALERT_INTERVAL_MS = 24 * 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

export type NewSearchAlert = {
  email: string;
  locale: string;
  query: string;
  label: string;
  /** The address is the signed-in user's own, and confirmed (ADR 066): no confirmation needed. */
  confirmed: boolean;
};

/**
 * created: a new alert (on at once when `confirmed`, else waiting);
 * waiting: this address already asked for this search and has not confirmed yet;
 * exists: this address already has this alert on;
 * full: the address has ALERTS_PER_ADDRESS alerts.
 */
export type AlertRequest =
  | { outcome: "created" | "waiting" | "exists"; alert: SearchAlert }
  | { outcome: "full"; alert: null };

async function findByEmailAndQuery(db: DB, email: string, query: string): Promise<SearchAlert | undefined> {
  return db
    .selectFrom("search_alerts")
    .selectAll()
    .where("email", "=", email)
    .where("query", "=", query)
    .executeTakeFirst();
}

/** Alerts of an address that count towards its limit: the live ones (isLive), waiting or on. */
async function liveCount(db: DB, email: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom("search_alerts")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("email", "=", email)
    .where("stoppedAt", "is", null)
    .where((eb) => eb.or([eb("confirmedAt", "is not", null), eb("createdAt", ">=", confirmableSince(now))]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Asks for an alert: one per address and search, ALERTS_PER_ADDRESS per address. */
export async function requestSearchAlert(db: DB, input: NewSearchAlert, now = currentTime()): Promise<AlertRequest> {
  const email = normalizeEmail(input.email);
  const at = now.toISOString();
  const existing = await findByEmailAndQuery(db, email, input.query);
  if (existing && isLive(existing, now)) {
    if (existing.confirmedAt !== null) return { outcome: "exists", alert: existing };
    if (!input.confirmed) return { outcome: "waiting", alert: existing };
    const confirmed = await confirmSearchAlert(db, existing.id, now);
    return confirmed ? { outcome: "created", alert: confirmed.alert } : { outcome: "full", alert: null };
  }
  // Several requests for one address at once must not pass the limit together.
  const created = await inTransaction(db, async (trx) => {
    await lockName(trx, `search-alerts:${email}`);
    // A stopped alert, or one not confirmed in time, asked for again starts afresh: whoever asks
    // must confirm again (the old link no longer works).
    if (existing) await trx.deleteFrom("search_alerts").where("id", "=", existing.id).execute();
    if ((await liveCount(trx, email, now)) >= ALERTS_PER_ADDRESS) return "full" as const;
    return insertAlert(trx, email, input, at);
  });
  if (created === "full") return { outcome: "full", alert: null };
  if (created) return { outcome: "created", alert: created };
  // The same request twice at once: the other one made it.
  const other = await findByEmailAndQuery(db, email, input.query);
  return other ? { outcome: other.confirmedAt ? "exists" : "waiting", alert: other } : { outcome: "full", alert: null };
}

/** Inserts the alert; null when the same address and search is already there (asked twice at once). */
async function insertAlert(db: DB, email: string, input: NewSearchAlert, at: string): Promise<SearchAlert | null> {
  const alert: SearchAlert = {
    id: newAlertId(),
    email,
    // Only alerts made before ADR 067 carry an old signed link's hash.
    manageKey: "",
    locale: input.locale,
    query: input.query,
    label: input.label,
    createdAt: at,
    confirmedAt: input.confirmed ? at : null,
    seenUpTo: input.confirmed ? await newestAdNumber(db) : 0,
    lastSentAt: null,
    stoppedAt: null,
  };
  const inserted = await db
    .insertInto("search_alerts")
    .values(alert)
    .onConflict((oc) => oc.columns(["email", "query"]).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 ? alert : null;
}

export async function findSearchAlert(db: DB, id: string): Promise<SearchAlert | undefined> {
  return db.selectFrom("search_alerts").selectAll().where("id", "=", id).executeTakeFirst();
}

/** When an alert made before this moment and still unconfirmed can no longer be confirmed. */
const confirmableSince = (now: Date) => new Date(now.getTime() - UNCONFIRMED_ALERT_DAYS * DAY_MS).toISOString();

/**
 * Not stopped, and confirmed or made within UNCONFIRMED_ALERT_DAYS. An older
 * unconfirmed alert is as good as deleted, whether or not the clean-up has run.
 */
function isLive(alert: SearchAlert, now: Date): boolean {
  return alert.stoppedAt === null && (alert.confirmedAt !== null || alert.createdAt >= confirmableSince(now));
}

/** The alert a confirmation link names, if it is live (it can still be confirmed, or already is). */
export async function findConfirmableSearchAlert(
  db: DB,
  id: string,
  now = currentTime(),
): Promise<SearchAlert | undefined> {
  const alert = await findSearchAlert(db, id);
  return alert && isLive(alert, now) ? alert : undefined;
}

/**
 * Confirms an alert: from now on its new matches are emailed. Only ads posted
 * after this moment are new to it. Null when there is no such alert (never made,
 * unconfirmed for UNCONFIRMED_ALERT_DAYS, or stopped).
 */
export async function confirmSearchAlert(
  db: DB,
  id: string,
  now = currentTime(),
): Promise<{ alert: SearchAlert; already: boolean } | null> {
  const seenUpTo = await newestAdNumber(db);
  const result = await db
    .updateTable("search_alerts")
    .set({ confirmedAt: now.toISOString(), seenUpTo })
    .where("id", "=", id)
    .where("confirmedAt", "is", null)
    .where("stoppedAt", "is", null)
    .where("createdAt", ">=", confirmableSince(now))
    .executeTakeFirst();
  const alert = await findConfirmableSearchAlert(db, id, now);
  if (!alert) return null;
  return { alert, already: Number(result.numUpdatedRows) === 0 };
}

/** Stops an alert (its email's link): null when there is none; stopping twice changes nothing. */
export async function stopSearchAlert(db: DB, id: string, now = currentTime()): Promise<SearchAlert | null> {
  await db
    .updateTable("search_alerts")
    .set({ stoppedAt: now.toISOString() })
    .where("id", "=", id)
    .where("stoppedAt", "is", null)
    .execute();
  return (await findSearchAlert(db, id)) ?? null;
}

/**
 * Turns a stopped alert of the address whose manage link was used back on (the
 * stop page's Undo), when it had been confirmed and the address is below its
 * limit; null otherwise (another address's alert among them).
 */
export async function restartSearchAlert(
  db: DB,
  email: string,
  id: string,
  now = currentTime(),
): Promise<SearchAlert | null> {
  const alert = await findSearchAlert(db, id);
  if (!alert || alert.email !== normalizeEmail(email) || alert.confirmedAt === null) return null;
  if (alert.stoppedAt === null) return alert;
  if ((await liveCount(db, alert.email, now)) >= ALERTS_PER_ADDRESS) return null;
  await db.updateTable("search_alerts").set({ stoppedAt: null }).where("id", "=", id).execute();
  return { ...alert, stoppedAt: null };
}

/** The alerts of an address (its manage link's, ADR 067), oldest first; stopped ones left out. */
export async function alertsOfAddress(db: DB, email: string): Promise<SearchAlert[]> {
  return db
    .selectFrom("search_alerts")
    .selectAll()
    .where("email", "=", normalizeEmail(email))
    .where("stoppedAt", "is", null)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
}

/**
 * Stops one alert (`id`) or all of them (`id` null) of the address whose manage
 * link was used: an alert of another address is never touched. Returns how many stopped.
 */
export async function stopAlertsOfAddress(
  db: DB,
  email: string,
  id: string | null,
  now = currentTime(),
): Promise<number> {
  let update = db
    .updateTable("search_alerts")
    .set({ stoppedAt: now.toISOString() })
    .where("email", "=", normalizeEmail(email))
    .where("stoppedAt", "is", null);
  if (id !== null) update = update.where("id", "=", id);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Confirmed alerts on whose last email (if any) is at least ALERT_INTERVAL_MS old, by id after `after`. */
export async function dueSearchAlerts(db: DB, now = currentTime(), after = "", limit = 500): Promise<SearchAlert[]> {
  const before = new Date(now.getTime() - ALERT_INTERVAL_MS).toISOString();
  return db
    .selectFrom("search_alerts")
    .selectAll()
    .where("confirmedAt", "is not", null)
    .where("stoppedAt", "is", null)
    .where((eb) => eb.or([eb("lastSentAt", "is", null), eb("lastSentAt", "<=", before)]))
    .where("id", ">", after)
    .orderBy("id")
    .limit(limit)
    .execute();
}

/**
 * Claims an alert's email for `now`: a conditional update on the last sending
 * time as read, so of two processes only one sends it. `seenUpTo` moves to the
 * newest ad the email covers.
 */
export async function claimAlertDigest(db: DB, alert: SearchAlert, seenUpTo: number, now = currentTime()) {
  let update = db
    .updateTable("search_alerts")
    .set({ lastSentAt: now.toISOString(), seenUpTo })
    .where("id", "=", alert.id)
    .where("stoppedAt", "is", null);
  update =
    alert.lastSentAt === null
      ? update.where("lastSentAt", "is", null)
      : update.where("lastSentAt", "=", alert.lastSentAt);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes alerts nobody confirmed within UNCONFIRMED_ALERT_DAYS, and alerts
 * stopped more than STOPPED_ALERT_DAYS ago.
 */
export async function removeOldSearchAlerts(
  db: DB,
  now = currentTime(),
): Promise<{ unconfirmed: number; stopped: number }> {
  const unconfirmedBefore = new Date(now.getTime() - UNCONFIRMED_ALERT_DAYS * DAY_MS).toISOString();
  const stoppedBefore = new Date(now.getTime() - STOPPED_ALERT_DAYS * DAY_MS).toISOString();
  const unconfirmed = await db
    .deleteFrom("search_alerts")
    .where("confirmedAt", "is", null)
    .where("createdAt", "<", unconfirmedBefore)
    .executeTakeFirst();
  const stopped = await db
    .deleteFrom("search_alerts")
    .where("stoppedAt", "is not", null)
    .where("stoppedAt", "<", stoppedBefore)
    .executeTakeFirst();
  return { unconfirmed: Number(unconfirmed.numDeletedRows), stopped: Number(stopped.numDeletedRows) };
}
