import { randomUUID } from "node:crypto";
import { invalidatePublicPages } from "~/cache/invalidation.server";
import type { DB } from "~/db/db.server";
import { isPostgres } from "~/db/search.server";
import { currentTime } from "~/lib/clock";
import { MAX_AD_NUMBER } from "~/lib/slug";
import { type ListingStatus, REPORTABLE_STATUSES } from "~/schemas/listing-status";
import { storeMessage } from "~/schemas/message";
import { REPORT_REASONS, type ReportInput, type ReportReason } from "~/schemas/report";
import { fail, type ReportCode, type Result } from "~/schemas/result";
import { audit } from "./audit-log.server";
import { hiddenColumns } from "./listing-hide.server";
import { listingsWithOwner, OWNER_MAIL_COLUMNS, type OwnerAddress } from "./listing-owner.server";
import { enqueueMail, type MailText } from "./outbox.server";

/**
 * Auto-hide needs independent reporters (ADR 017). A report counts
 * towards REPORT_AUTO_HIDE only when it came from a browser this site knows
 * (a signed visitor id) or a signed-in account, from a network (IPv4 /24,
 * IPv6 /64), browser and account that no counted report on the listing used
 * yet: at most one per network. Signed-in reporters weigh more (an account
 * costs more to make than a cookie).
 */
export const REPORT_WEIGHT = { signedIn: 2, anonymous: 1 } as const;
/**
 * A report saying the owner asked for money before a viewing weighs this much
 * more (ADR 077), once a second independent reporter stands beside it: with
 * REPORT_AUTO_HIDE 3, two people hide the listing instead of three, and one
 * person never does alone, whatever reason they choose.
 */
export const MONEY_BEFORE_VIEWING_EXTRA = 1;
const MONEY_BEFORE_VIEWING: ReportReason = "money-before-viewing";
/** Reports one network may file on one listing in a day (stored or not, counted or not). */
export const REPORTS_PER_ORIGIN_PER_LISTING = 3;
const ORIGIN_CAP_WINDOW_MS = 24 * 60 * 60 * 1000;
/** After a moderator restores a listing, only reports filed this much later count again. */
export const RESTORE_COOL_DOWN_MS = 24 * 60 * 60 * 1000;
/** Moderators get at most one email per listing per hour (the first report at once, the rest in a digest). */
export const MODERATOR_MAIL_INTERVAL_MS = 60 * 60 * 1000;

export type ReportedListing = { id: number; slug: string; title: string };
export type StoredReport = ReportInput & { id: string; status: "pending"; createdAt: string };

/** Who filed a report, as far as the server can tell. */
export type Reporter = {
  /** networkOrigin() of the client address. */
  originGroup: string;
  /** Salted hash of a signed visitor id the request carried (not one issued with the answer), else null. */
  visitorKey: string | null;
  userId: string | null;
};

export type CreateReportResult = Result<
  ReportCode,
  {
    report: StoredReport;
    listing: ReportedListing;
    autoHidden: boolean;
    /** Independent reporters counted towards hiding, and their weight. */
    reporterCount: number;
    weight: number;
    /** Email moderators now (else the digest job gathers it within the hour). */
    notifyModerators: boolean;
  }
>;

/**
 * Stores a report (already validated by `reportSchema`) as 'pending'. In the
 * same transaction, when the independent reporters' weight on the listing
 * (`countIndependentReports`) reaches `autoHideAt`, the listing is hidden until
 * a moderator reviews it, with an audit_log entry by the system (actorId null).
 * A network that already filed REPORTS_PER_ORIGIN_PER_LISTING reports on the
 * listing today is refused ("report.origin_cap").
 */
export async function createReport(
  db: DB,
  input: ReportInput,
  options: { autoHideAt: number; reporter: Reporter; now?: Date },
): Promise<CreateReportResult> {
  const now = options.now ?? currentTime();
  const at = now.toISOString();
  const listingId = Number(input.listingId);
  // Ad numbers are PostgreSQL integers: a larger number is no listing (and no query error).
  if (!Number.isSafeInteger(listingId) || listingId < 1 || listingId > MAX_AD_NUMBER) return fail("listing.not_found");
  const { reporter } = options;
  return db.transaction().execute(async (trx): Promise<CreateReportResult> => {
    // The listing's row lock on PostgreSQL, so concurrent reports on one listing count and hide one
    // after another (SQLite runs one transaction at a time anyway); hidden or missing listings are
    // refused. The lock an UPDATE would take (FOR NO KEY UPDATE), without an UPDATE's new version of
    // the row: a no-op write left a dead row per report and, when it could not stay on its page
    // (1,117 of 1,300 on a seeded table), an entry in each of the table's indexes, for vacuum to clear.
    const listing = await trx
      .selectFrom("listings")
      .select(["id", "slug", "title"])
      .where("id", "=", listingId)
      // What the public can see, and so report (hidden ones are gone).
      .where("status", "in", [...REPORTABLE_STATUSES])
      .$if(isPostgres(trx), (query) => query.forNoKeyUpdate())
      .executeTakeFirst();
    if (!listing) return fail("listing.not_found");

    const fromOrigin = await trx
      .selectFrom("reports")
      .select((eb) => [eb.fn.countAll<string | number>().as("n"), eb.fn.min("createdAt").as("oldest")])
      .where("listingId", "=", listingId)
      .where("originGroup", "=", reporter.originGroup)
      .where("createdAt", ">", new Date(now.getTime() - ORIGIN_CAP_WINDOW_MS).toISOString())
      .executeTakeFirstOrThrow();
    if (Number(fromOrigin.n) >= REPORTS_PER_ORIGIN_PER_LISTING) {
      // The network may report this listing again when its oldest report of the window leaves it.
      const reopensAt = Date.parse(String(fromOrigin.oldest)) + ORIGIN_CAP_WINDOW_MS;
      const retryAfterSeconds = Math.max(1, Math.ceil((reopensAt - now.getTime()) / 1000));
      return fail("report.origin_cap", { values: { retryAfterSeconds } });
    }

    const lastNotified = await trx
      .selectFrom("reports")
      .select((eb) => eb.fn.max("notifiedAt").as("at"))
      .where("listingId", "=", listingId)
      .executeTakeFirst();
    const notifyModerators =
      !lastNotified?.at || Date.parse(lastNotified.at) <= now.getTime() - MODERATOR_MAIL_INTERVAL_MS;

    const report: StoredReport = { ...input, id: randomUUID(), status: "pending", createdAt: at };
    await trx
      .insertInto("reports")
      .values({
        id: report.id,
        listingId,
        reporterName: input.reporterName,
        reporterEmail: input.reporterEmail,
        reporterContact: input.reporterContact,
        reason: input.reason,
        description: input.description === "" ? null : input.description,
        status: "pending",
        createdAt: at,
        updatedAt: at,
        originGroup: reporter.originGroup,
        visitorKey: reporter.visitorKey,
        reporterUserId: reporter.userId,
        notifiedAt: notifyModerators ? at : null,
      })
      .execute();

    const { reporters: reporterCount, weight } = await countIndependentReports(trx, listingId);
    const autoHidden = weight >= options.autoHideAt;
    if (autoHidden) {
      // A key and its values, shown in the reader's language (ADR 028).
      const reason = storeMessage({ key: "report.autoHide.reason", values: { count: reporterCount } });
      await trx
        .updateTable("listings")
        .set(hiddenColumns("reports", reason, at))
        .where("id", "=", listingId)
        .execute();
      await invalidatePublicPages(trx, [listingId], options.now);
      await audit(trx, null, "listing.auto-hide", { type: "listing", id: listingId }, reason, at);
    }
    return { ok: true, report, listing, autoHidden, reporterCount, weight, notifyModerators };
  });
}

/**
 * The pending reports on a listing that count towards hiding it, and their
 * weight (with MONEY_BEFORE_VIEWING_EXTRA for each saying the owner asked for
 * money before a viewing, from the second reporter on). Once a moderator has restored the listing, only reports filed
 * RESTORE_COOL_DOWN_MS after the restore count, and none from a network,
 * browser or account that reported it before then (that wave was reviewed).
 */
export async function countIndependentReports(
  db: DB,
  listingId: number,
): Promise<{ reporters: number; weight: number; reasons: string[] }> {
  const restored = await db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.max("createdAt").as("at"))
    .where("targetType", "=", "listing")
    .where("targetId", "=", String(listingId))
    .where("action", "=", "listing.restore")
    .executeTakeFirst();
  const countFrom = restored?.at ? new Date(Date.parse(restored.at) + RESTORE_COOL_DOWN_MS).toISOString() : "";
  const rows = await db
    .selectFrom("reports")
    .select(["status", "createdAt", "originGroup", "visitorKey", "reporterUserId", "reason"])
    .where("listingId", "=", listingId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  const used = { origins: new Set<string>(), visitors: new Set<string>(), users: new Set<string>() };
  const isUsed = (r: (typeof rows)[number]) =>
    (r.originGroup !== null && used.origins.has(r.originGroup)) ||
    (r.visitorKey !== null && used.visitors.has(r.visitorKey)) ||
    (r.reporterUserId !== null && used.users.has(r.reporterUserId));
  const use = (r: (typeof rows)[number]) => {
    if (r.originGroup !== null) used.origins.add(r.originGroup);
    if (r.visitorKey !== null) used.visitors.add(r.visitorKey);
    if (r.reporterUserId !== null) used.users.add(r.reporterUserId);
  };
  let reporters = 0;
  let weight = 0;
  let moneyReports = 0;
  const reasons = new Set<string>();
  for (const row of rows) {
    // An earlier wave (before the restore's cool-down ended) spends its reporters.
    if (row.createdAt < countFrom) {
      use(row);
      continue;
    }
    if (row.status !== "pending" || row.originGroup === null) continue;
    if (row.visitorKey === null && row.reporterUserId === null) continue;
    if (isUsed(row)) continue;
    use(row);
    reporters += 1;
    weight += row.reporterUserId !== null ? REPORT_WEIGHT.signedIn : REPORT_WEIGHT.anonymous;
    if (row.reason === MONEY_BEFORE_VIEWING) moneyReports += 1;
    reasons.add(row.reason);
  }
  if (reporters >= 2) weight += moneyReports * MONEY_BEFORE_VIEWING_EXTRA;
  // In the form's order, not the reports' (reports sent in the same millisecond have no order).
  const rank = (reason: string) => {
    const at = (REPORT_REASONS as readonly string[]).indexOf(reason);
    return at === -1 ? REPORT_REASONS.length : at;
  };
  return { reporters, weight, reasons: [...reasons].sort((a, b) => rank(a) - rank(b)) };
}

/** Who gets moderators' mail, each with their preferred language; the support address (English) when there is no moderator. */
export async function moderatorRecipients(db: DB, supportEmail: string): Promise<{ email: string; locale: string }[]> {
  const rows = await db
    .selectFrom("users")
    .select(["email", "locale"])
    .where("role", "=", "moderator")
    .where("status", "=", "active")
    .orderBy("email")
    .execute();
  return rows.length > 0 ? rows : [{ email: supportEmail, locale: "en" }];
}

/**
 * Queues one email per moderator about a new report (plain text: what the
 * reporter typed is never HTML), replying to the reporter. `compose` writes the
 * text in a moderator's language, where the words live (app/mail/report-mails.server.ts).
 */
export async function emailModerators(
  db: DB,
  supportEmail: string,
  mail: { kind: string; replyTo?: string; compose: (locale: string) => MailText },
  now = currentTime(),
): Promise<string[]> {
  const { compose, ...rest } = mail;
  const ids: string[] = [];
  for (const { email, locale } of await moderatorRecipients(db, supportEmail))
    ids.push(await enqueueMail(db, { ...rest, ...compose(locale), to: email }, now));
  return ids;
}

/** What one moderators' digest gathers, and where it records what it named. */
export type ModeratorDigest<Row extends { id: string }> = {
  kind: string;
  supportEmail: string;
  /** The column that keeps when a row was named in a digest (null: waiting for the next one). */
  sentIn: { table: "reports"; column: "notifiedAt" } | { table: "listing_holds"; column: "digestMailedAt" };
  /** One listing's rows, each with its own hourly digest; else the whole table's. */
  listingId?: number;
  /** The rows no digest has named yet, in the order this one names them. */
  unsent: (trx: DB) => Promise<Row[]>;
  /** The email, in a moderator's language. */
  compose: (trx: DB, rows: Row[]) => Promise<(locale: string) => MailText>;
};

class DigestRace extends Error {}

/**
 * Emails every moderator one digest of the rows not yet named, once the last
 * one is MODERATOR_MAIL_INTERVAL_MS old; in one transaction, marking them
 * conditionally, so of two runs at once only one sends. Returns how many rows
 * it named (0: not due yet, nothing waiting, or another run got there first).
 */
export async function sendModeratorDigest<Row extends { id: string }>(
  db: DB,
  digest: ModeratorDigest<Row>,
  now: Date,
): Promise<number> {
  const { table, column } = digest.sentIn;
  const due = new Date(now.getTime() - MODERATOR_MAIL_INTERVAL_MS).toISOString();
  return db
    .transaction()
    .execute(async (trx) => {
      const last = await trx
        .selectFrom(table)
        .select((eb) => eb.fn.max(column).as("at"))
        .$if(digest.listingId !== undefined, (qb) => qb.where("listingId", "=", digest.listingId as number))
        .executeTakeFirst();
      if (last?.at && last.at > due) return 0;
      const rows = await digest.unsent(trx);
      if (rows.length === 0) return 0;
      const marked = await trx
        .updateTable(table)
        .set({ [column]: now.toISOString() })
        .where(
          "id",
          "in",
          rows.map((r) => r.id),
        )
        .where(column, "is", null)
        .executeTakeFirst();
      // Another run got there first.
      if (Number(marked.numUpdatedRows) !== rows.length) throw new DigestRace();
      const compose = await digest.compose(trx, rows);
      await emailModerators(trx, digest.supportEmail, { kind: digest.kind, compose }, now);
      return rows.length;
    })
    .catch((error: unknown) => {
      if (error instanceof DigestRace) return 0;
      throw error;
    });
}

/** Who to tell that reports hid a listing, and why: the counted reporters' reasons (never who they are). */
/** `locale`: the owner's preferred language, which the notice is written in (ADR 069). */
export type AutoHideNotice = OwnerAddress & {
  listing: ReportedListing;
  reasons: string[];
};

export async function autoHideNotice(db: DB, listing: ReportedListing): Promise<AutoHideNotice | null> {
  const owner = await listingsWithOwner(db)
    .select([...OWNER_MAIL_COLUMNS])
    .where("listings.id", "=", listing.id)
    .executeTakeFirst();
  if (!owner) return null;
  const { reasons } = await countIndependentReports(db, listing.id);
  return { email: owner.email, name: owner.name, locale: owner.locale, listing, reasons };
}

/** The reports one digest email gathers for one listing (the listing may be gone). */
export type ReportDigest = {
  listingId: number;
  listing: { slug: string; title: string; status: ListingStatus } | null;
  reports: { id: string; reason: string; reporterName: string; reporterEmail: string; createdAt: string }[];
};

/**
 * The "report-digest" job: for each listing whose reports arrived while its
 * moderators' hourly email was spent (notifiedAt null), one email gathering
 * them once the hour since the last one has passed.
 */
export async function sendReportDigests(
  db: DB,
  options: { supportEmail: string; compose: (digest: ReportDigest, locale: string) => MailText },
  now = currentTime(),
): Promise<{ digests: number; reports: number }> {
  const waiting = await db
    .selectFrom("reports")
    .select("listingId")
    .distinct()
    .where("notifiedAt", "is", null)
    .execute();
  let digests = 0;
  let reports = 0;
  for (const { listingId } of waiting) {
    const sent = await sendModeratorDigest(
      db,
      {
        kind: "report-digest",
        supportEmail: options.supportEmail,
        sentIn: { table: "reports", column: "notifiedAt" },
        listingId,
        unsent: (trx) =>
          trx
            .selectFrom("reports")
            .select(["id", "reason", "reporterName", "reporterEmail", "createdAt"])
            .where("listingId", "=", listingId)
            .where("notifiedAt", "is", null)
            .orderBy("createdAt")
            .execute(),
        compose: async (trx, rows) => {
          const listing = await trx
            .selectFrom("listings")
            .select(["id", "slug", "title", "status"])
            .where("id", "=", listingId)
            .executeTakeFirst();
          const digest: ReportDigest = {
            listingId,
            listing: listing ? { slug: listing.slug, title: listing.title, status: listing.status } : null,
            reports: rows,
          };
          return (locale) => options.compose(digest, locale);
        },
      },
      now,
    );
    if (sent > 0) {
      digests += 1;
      reports += sent;
    }
  }
  return { digests, reports };
}
