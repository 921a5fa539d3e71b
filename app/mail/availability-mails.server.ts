import type { DB } from "~/db/db.server";
import type { Translator } from "~/i18n";
import { localeOrDefault, localePath } from "~/i18n/locales";
import { translatorFor } from "~/i18n/translator.server";
import { currentTime } from "~/lib/clock";
import {
  type AvailabilityReminder,
  claimAvailabilityReminder,
  dueAvailabilityReminders,
} from "~/models/availability.server";
import { enqueueMail, type MailText } from "~/models/outbox.server";
import { availabilityToken } from "~/security/availability-token.server";
import "virtual:catalogue/mail";

export type Site = { siteName: string; siteUrl: string; secret: string };

/** The reminder in the owner's language, with its two one-click links (ADR 056). */
export function availabilityReminderMail(
  t: Translator,
  site: Site,
  reminder: AvailabilityReminder,
  now: Date,
): MailText {
  const locale = localeOrDefault(reminder.owner.locale);
  const link = (answer: "yes" | "no") =>
    `${site.siteUrl}${localePath(locale, `/availability/${availabilityToken(site.secret, reminder.listingId, answer, now)}`)}`;
  const values = {
    siteName: site.siteName,
    name: reminder.owner.name,
    title: reminder.title,
    adNumber: String(reminder.listingId),
    days: reminder.confirmedDaysAgo,
    expiresIn: reminder.expiresInDays,
    yesUrl: link("yes"),
    noUrl: link("no"),
    myAdsUrl: `${site.siteUrl}${localePath(locale, "/dashboard")}`,
  };
  return {
    // A title with line breaks must not make a multi-line subject.
    subject: t("mail.availabilityReminder.subject", values).replace(/\s+/g, " "),
    text: t("mail.availabilityReminder.text", values),
  };
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
