import type { DB } from "~/db/db.server";
import type { Translator } from "~/i18n";
import { type Locale, localeOrDefault, localePath } from "~/i18n/locales";
import { translatorFor } from "~/i18n/translator.server";
import { currentTime } from "~/lib/clock";
import { formatLkr } from "~/lib/format";
import { issueManageLink } from "~/models/alert-manage-links.server";
import { approvedSince } from "~/models/listing-review.server";
import { matchingListings, newestAdNumber, searchListings } from "~/models/listing-search.server";
import { enqueueMail, type OutgoingMail } from "~/models/outbox.server";
import {
  ALERTS_PER_ADDRESS,
  type AlertRequest,
  claimAlertDigest,
  dueSearchAlerts,
  type SearchAlert,
} from "~/models/search-alerts.server";
import { parseBrowseFilters } from "~/schemas/browse-filters";
import type { ListingSummary } from "~/schemas/listing-view";
import { alertToken } from "~/security/alert-token.server";
import "virtual:catalogue/mail";

export type AlertSite = { siteName: string; siteUrl: string; secret: string };

/** New places one email lists; past them, a link to all of them in browse. */
export const DIGEST_MAX_PLACES = 10;

/** A label with line breaks must not make a multi-line subject. */
const oneLine = (text: string) => text.replace(/\s+/g, " ");

/** `manageToken`: a fresh manage link for the address (issueManageLink): every alert email carries one (ADR 067). */
function linksFor(site: AlertSite, alert: Pick<SearchAlert, "id" | "locale" | "query">, manageToken: string) {
  const locale: Locale = localeOrDefault(alert.locale);
  const url = (path: string) => `${site.siteUrl}${localePath(locale, path)}`;
  const browse = new URLSearchParams(alert.query);
  browse.set("sort", "newest");
  return {
    locale,
    url,
    confirmUrl: url(`/alerts/confirm/${alertToken(site.secret, "confirm", alert.id)}`),
    stopUrl: url(`/alerts/stop/${alertToken(site.secret, "stop", alert.id)}`),
    unsubscribeUrl: url(`/alerts/unsubscribe/${alertToken(site.secret, "stop", alert.id)}`),
    manageUrl: url(`/alerts/manage/${manageToken}`),
    browseUrl: url(`/browse?${browse}`),
  };
}

/**
 * The one email a request for an alert sends, whatever the address already
 * has, so whoever asks learns nothing about it from the page: the
 * confirmation link, or 'already on', or 'you have 10', each with what to do.
 * Whoever asked may not own the address, so the search is named by
 * `mailLabel` (alertSearch): the filters chosen from lists, never the words
 * typed in (a stranger's links or phone numbers in our email; ADR 067).
 */
export function alertRequestMail(
  site: AlertSite,
  request: Exclude<AlertRequest, { outcome: "full" }> | { outcome: "full"; email: string; locale: string },
  manageToken: string,
  mailLabel: string,
): OutgoingMail {
  if (request.outcome === "full") {
    const t = translatorFor(request.locale);
    const links = linksFor(site, { id: "", locale: request.locale, query: "" }, manageToken);
    const values = {
      siteName: site.siteName,
      email: request.email,
      label: mailLabel,
      max: ALERTS_PER_ADDRESS,
      manageUrl: links.manageUrl,
    };
    return {
      kind: "alert-full",
      to: request.email,
      subject: oneLine(t("mail.searchAlert.full.subject", values)),
      text: t("mail.searchAlert.full.text", values),
    };
  }
  const { alert } = request;
  const t = translatorFor(alert.locale);
  const links = linksFor(site, alert, manageToken);
  const values = { siteName: site.siteName, email: alert.email, label: mailLabel, ...links };
  const which = request.outcome === "exists" ? "exists" : "confirm";
  return {
    kind: `alert-${which}`,
    to: alert.email,
    subject: oneLine(t(`mail.searchAlert.${which}.subject`, values)),
    text: t(`mail.searchAlert.${which}.text`, values),
  };
}

/**
 * A fresh manage link asked for from an old or expired one's page (ADR 067):
 * sent to the address, never shown to whoever asked.
 */
export function alertManageLinkMail(site: AlertSite, email: string, locale: string, manageToken: string): OutgoingMail {
  const t = translatorFor(locale);
  const links = linksFor(site, { id: "", locale, query: "" }, manageToken);
  const values = { siteName: site.siteName, email, manageUrl: links.manageUrl };
  return {
    kind: "alert-manage",
    to: email,
    subject: oneLine(t("mail.searchAlert.manage.subject", values)),
    text: t("mail.searchAlert.manage.text", values),
  };
}

/**
 * The ads of an alert's search posted after the ones it has seen, newest first,
 * then those approved after a hold since it last looked (their numbers are
 * older, ADR 083); one more than shown: what its next email lists (the public
 * view tests read it too).
 */
export async function newAlertMatches(db: DB, alert: SearchAlert, now: Date): Promise<ListingSummary[]> {
  const wanted = DIGEST_MAX_PLACES + 1;
  const { filters } = parseBrowseFilters(new URLSearchParams(alert.query));
  const { ads } = await searchListings(
    db,
    { ...filters, sort: "newest" },
    { page: 1, limit: wanted, countLimit: wanted, now },
  );
  const posted = ads.filter((ad) => Number(ad.id) > alert.seenUpTo);
  const lookedAt = alert.lastSentAt ?? alert.confirmedAt;
  if (posted.length >= wanted || !lookedAt) return posted;
  const approved = await approvedSince(db, lookedAt, alert.seenUpTo, wanted);
  return [...posted, ...(await matchingListings(db, filters, approved, now))].slice(0, wanted);
}

/** The daily email of an alert's new places, in its language, with the List-Unsubscribe headers (RFC 2369, RFC 8058). */
export function alertDigestMail(
  t: Translator,
  site: AlertSite,
  alert: SearchAlert,
  places: readonly ListingSummary[],
  manageToken: string,
): OutgoingMail {
  const links = linksFor(site, alert, manageToken);
  const shown = places.slice(0, DIGEST_MAX_PLACES);
  const count = places.length;
  const items = shown.map((ad) =>
    t("mail.searchAlert.digest.item", {
      title: oneLine(ad.title),
      rent: formatLkr(ad.price, links.locale),
      // A location that is a map link says less than the town.
      place: oneLine(ad.location && !/^https?:/i.test(ad.location) ? ad.location : ad.cityName),
      url: links.url(`/listing/${ad.slug}`),
    }),
  );
  const values = { siteName: site.siteName, label: alert.label, count, ...links };
  const text = [
    t("mail.searchAlert.digest.intro", values),
    ...items,
    t(places.length > DIGEST_MAX_PLACES ? "mail.searchAlert.digest.more" : "mail.searchAlert.digest.all", values),
    t("mail.searchAlert.digest.footer", values),
  ].join("\n\n");
  return {
    kind: "alert-digest",
    to: alert.email,
    // More than shown: "More than 10 new places", not a count it did not read.
    subject: oneLine(
      t(count > DIGEST_MAX_PLACES ? "mail.searchAlert.digest.subjectMore" : "mail.searchAlert.digest.subject", {
        ...values,
        count: Math.min(count, DIGEST_MAX_PLACES),
      }),
    ),
    text,
    headers: {
      "List-Unsubscribe": `<${links.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

/**
 * The "search-alerts" job: for each confirmed alert whose last email is a day
 * old (or that never had one), the places posted since it last looked; an
 * email when there are any. Each alert is claimed before its email is queued,
 * so two servers never send it twice.
 */
export async function sendSearchAlerts(db: DB, site: AlertSite, now = currentTime()): Promise<{ emailed: number }> {
  let emailed = 0;
  let after = "";
  for (;;) {
    const due = await dueSearchAlerts(db, now, after);
    if (due.length === 0) return { emailed };
    // Read before the batch's searches: an ad posted while they run is newer, so the next email has it.
    const newest = await newestAdNumber(db);
    for (const alert of due) {
      after = alert.id;
      const places = await newAlertMatches(db, alert, now);
      if (places.length === 0) continue;
      const seenUpTo = Math.max(newest, ...places.map((ad) => Number(ad.id)));
      if (!(await claimAlertDigest(db, alert, seenUpTo, now))) continue;
      const manageToken = await issueManageLink(db, alert.email, now);
      await enqueueMail(db, alertDigestMail(translatorFor(alert.locale), site, alert, places, manageToken), now);
      emailed += 1;
    }
  }
}
