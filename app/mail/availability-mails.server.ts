import type { DB } from "~/db/db.server";
import type { Translator } from "~/i18n";
import { localeOrDefault, localePath } from "~/i18n/locales";
import { translatorFor } from "~/i18n/translator.server";
import { currentTime } from "~/lib/clock";
import {
  type AvailabilityReminder,
  claimAvailabilityReminder,
  currentStateVersion,
  dueAvailabilityReminders,
} from "~/models/availability.server";
import { letReportOwner } from "~/models/let-reports.server";
import { enqueueMail, type MailText } from "~/models/outbox.server";
import { availabilityToken } from "~/security/availability-token.server";
import "virtual:catalogue/mail";

export type Site = { siteName: string; siteUrl: string; secret: string };

type Owner = { name: string; locale: string };

/**
 * The values every availability email shares: the owner, the ad, and its two
 * one-click links in their language, for the listing's state as it is now
 * (`stateVersion`: a later decision voids them, ADR 063).
 */
function linkValues(site: Site, owner: Owner, listing: { id: number; title: string; stateVersion: number }, now: Date) {
  const locale = localeOrDefault(owner.locale);
  const link = (answer: "yes" | "no") => {
    const token = availabilityToken(site.secret, { listingId: listing.id, answer, version: listing.stateVersion }, now);
    return `${site.siteUrl}${localePath(locale, `/availability/${token}`)}`;
  };
  return {
    siteName: site.siteName,
    name: owner.name,
    title: listing.title,
    adNumber: String(listing.id),
    yesUrl: link("yes"),
    noUrl: link("no"),
    myAdsUrl: `${site.siteUrl}${localePath(locale, "/dashboard")}`,
  };
}

/** A title with line breaks must not make a multi-line subject. */
const oneLine = (text: string) => text.replace(/\s+/g, " ");

/** The reminder in the owner's language, with its two one-click links (ADR 056). */
export function availabilityReminderMail(
  t: Translator,
  site: Site,
  reminder: AvailabilityReminder,
  now: Date,
): MailText {
  const values = {
    ...linkValues(
      site,
      reminder.owner,
      { id: reminder.listingId, title: reminder.title, stateVersion: reminder.stateVersion },
      now,
    ),
    days: reminder.confirmedDaysAgo,
    expiresIn: reminder.expiresInDays,
  };
  return {
    subject: oneLine(t("mail.availabilityReminder.subject", values)),
    text: t("mail.availabilityReminder.text", values),
  };
}

/** Students said the listing may be let (ADR 057; at most weekly, ADR 064): the owner is asked, with the same links. */
export async function emailOwnerAboutUnconfirmed(
  db: DB,
  site: Site,
  listingId: number,
  now = currentTime(),
): Promise<string | null> {
  const [owner, stateVersion] = await Promise.all([letReportOwner(db, listingId), currentStateVersion(db, listingId)]);
  if (!owner || stateVersion === null) return null;
  const t = translatorFor(owner.locale);
  const values = linkValues(site, owner, { id: listingId, title: owner.title, stateVersion }, now);
  return enqueueMail(
    db,
    {
      kind: "availability-unconfirmed",
      to: owner.email,
      subject: oneLine(t("mail.availabilityUnconfirmed.subject", values)),
      text: t("mail.availabilityUnconfirmed.text", values),
    },
    now,
  );
}

/** The "availability-reminders" job: one email per listing due, each claimed first so it goes once. */
export async function sendAvailabilityReminders(
  db: DB,
  site: Site,
  now = currentTime(),
): Promise<{ reminded: number }> {
  let reminded = 0;
  for (const reminder of await dueAvailabilityReminders(db, now)) {
    if (!(await claimAvailabilityReminder(db, reminder))) continue;
    const mail = availabilityReminderMail(translatorFor(reminder.owner.locale), site, reminder, now);
    await enqueueMail(db, { kind: "availability-reminder", to: reminder.owner.email, ...mail }, now);
    reminded += 1;
  }
  return { reminded };
}
