import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { daysLeft, daysSinceConfirmed, expiryOfConfirmation } from "~/lib/days-left";
import { LISTED_STATUS } from "~/schemas/listing-status";
import { listingsWithOwner, OWNER_MAIL_COLUMNS, type OwnerAddress } from "./listing-owner.server";

/**
 * The availability reminder (ADR 056): 14 days after its
 * last confirmation, an active listing's owner is asked once whether it is
 * still available. `reminderFor` holds the expiry the reminder was sent for,
 * so confirming (which moves the expiry) makes the next one due 14 days later.
 */
export const REMINDER_AFTER_DAYS = 14;

/** At most this many reminders per run: the hourly job catches up on the rest. */
const REMINDERS_PER_RUN = 500;

/**
 * How long after falling due a listing is still reminded (a server down for a
 * day catches up). The job reads only listings that fell due within this
 * window, so each hourly run walks a few percent of the expiry index instead
 * of every listing confirmed 14 to 30 days ago, most of them long reminded.
 * Listings already further along when the job first ran are not reminded; they
 * expire 30 days after their confirmation as before.
 */
export const REMINDER_CATCH_UP_DAYS = 2;

export type AvailabilityReminder = {
  listingId: number;
  title: string;
  expiresAt: string;
  /** The state its links answer (ADR 063). */
  stateVersion: number;
  /** Whole days since the last confirmation, and until the listing leaves search. */
  confirmedDaysAgo: number;
  expiresInDays: number;
  owner: OwnerAddress;
};

/** Active listings confirmed at least 14 days ago, not yet expired, not yet reminded for this confirmation. */
export async function dueAvailabilityReminders(db: DB, now = currentTime()): Promise<AvailabilityReminder[]> {
  const rows = await listingsWithOwner(db)
    .select(["listings.id", "listings.title", "listings.expiresAt", "listings.stateVersion", ...OWNER_MAIL_COLUMNS])
    .where("listings.status", "=", LISTED_STATUS)
    // A suspended owner's listings are hidden; asked again so none is reminded (ADR 063).
    .where("users.status", "=", "active")
    .where("listings.expiresAt", ">", now.toISOString())
    .where("listings.expiresAt", ">", expiryOfConfirmation(REMINDER_AFTER_DAYS + REMINDER_CATCH_UP_DAYS, now))
    .where("listings.expiresAt", "<=", expiryOfConfirmation(REMINDER_AFTER_DAYS, now))
    .where((eb) =>
      eb.or([eb("listings.reminderFor", "is", null), eb("listings.reminderFor", "!=", eb.ref("listings.expiresAt"))]),
    )
    .orderBy("listings.expiresAt")
    .limit(REMINDERS_PER_RUN)
    .execute();
  return rows.map((row) => ({
    listingId: row.id,
    title: row.title,
    expiresAt: row.expiresAt,
    stateVersion: Number(row.stateVersion),
    confirmedDaysAgo: daysSinceConfirmed(row.expiresAt, now),
    expiresInDays: daysLeft(row.expiresAt, now),
    owner: { email: row.email, name: row.name, locale: row.locale },
  }));
}

/**
 * Claims the reminder of one confirmation: true once, for the process that
 * sends it; false when it was sent already or the listing was confirmed since.
 */
export async function claimAvailabilityReminder(db: DB, reminder: AvailabilityReminder): Promise<boolean> {
  const claimed = await db
    .updateTable("listings")
    .set({ reminderFor: reminder.expiresAt })
    .where("id", "=", reminder.listingId)
    .where("expiresAt", "=", reminder.expiresAt)
    .where((eb) => eb.or([eb("reminderFor", "is", null), eb("reminderFor", "!=", reminder.expiresAt)]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** The state version a link issued now answers (ADR 063); null for a listing that is not there. */
export async function currentStateVersion(db: DB, listingId: number): Promise<number | null> {
  const row = await db.selectFrom("listings").select("stateVersion").where("id", "=", listingId).executeTakeFirst();
  return row ? Number(row.stateVersion) : null;
}
