import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { down, up } from "../../app/db/migrations/2026-11-24-008-reasons-as-keys";
import { t } from "../../app/i18n";
import { inLocale } from "../../app/i18n/request-locale.server";
import { emailOwnerAboutAutoHide } from "../../app/mail/report-mails.server";
import { audit, listAuditLog } from "../../app/models/audit-log.server";
import { insertListing } from "../../app/models/listing.server";
import { hideListing } from "../../app/models/listing-moderation.server";
import { listOwnerListings } from "../../app/models/owner-listing-reads.server";
import { createReport } from "../../app/models/report.server";
import { getReportDetail } from "../../app/models/report-review.server";
import { setUserRole } from "../../app/models/user-moderation.server";
import { type Reason, reasonText } from "../../app/schemas/message";
import { insertTestOwner, listingInput, reportInput } from "../factories";
import { TEST_SITE } from "../request-context";
import { describeEachDatabase } from "../test-db";

// ADR 028: the reason a listing was hidden by reports is stored as a message key and its
// values, and shown in the reader's language (English today, as the same sentence as before).

let seq = 0;
const uid = (name: string) => `${name}-${Date.now().toString(36)}-${++seq}`;
const SENTENCE = "Hidden automatically after reports from 1 person, until a moderator reviews it.";
const moderator = { id: "mod-keys", email: "mod-keys@bodima.test" };

async function autoHidden(db: DB) {
  const owner = await insertTestOwner(db, uid("keys"));
  const listing = await insertListing(db, owner, listingInput({ title: "Keyed room" }));
  const created = await createReport(db, reportInput(listing.id), {
    autoHideAt: 1,
    reporter: { originGroup: `192.0.${seq % 250}.0/24`, visitorKey: uid("v"), userId: null },
  });
  expect(created).toMatchObject({ ok: true, autoHidden: true });
  if (!created.ok) throw new Error("not reported");
  return { owner, listing: created.listing, report: created.report };
}

const shown = (reason: Reason | null) => (reason ? reasonText(t, reason) : null);

describeEachDatabase("reasons as keys", (ctx) => {
  it("stores the auto-hide reason as a key with values, in the listing and the audit log", async () => {
    const { db } = ctx();
    const { listing } = await autoHidden(db);
    const row = await db
      .selectFrom("listings")
      .select(["hiddenBy", "hiddenReason"])
      .where("id", "=", listing.id)
      .executeTakeFirstOrThrow();
    expect(row.hiddenBy).toBe("reports");
    expect(JSON.parse(row.hiddenReason ?? "")).toEqual({ key: "report.autoHide.reason", values: { count: 1 } });
    const audit = await db
      .selectFrom("audit_log")
      .select("reason")
      .where("targetId", "=", String(listing.id))
      .executeTakeFirstOrThrow();
    expect(audit.reason).toBe(row.hiddenReason);
  });

  it("shows the same English sentence on the owner's dashboard, the report page and the audit log", async () => {
    const { db } = ctx();
    const { owner, listing, report } = await autoHidden(db);
    const [mine] = await listOwnerListings(db, owner.id);
    expect(mine.hiddenReason).toEqual({ key: "report.autoHide.reason", values: { count: 1 } });
    expect(shown(mine.hiddenReason)).toBe(SENTENCE);
    expect(shown((await getReportDetail(db, report.id))?.listing.hiddenReason ?? null)).toBe(SENTENCE);
    const { entries } = await listAuditLog(db, { page: 1, limit: 50 });
    const entry = entries.find((e) => e.targetId === String(listing.id) && e.action === "listing.auto-hide");
    expect(shown(entry?.reason ?? null)).toBe(SENTENCE);
  });

  it("stores the role change of npm run user:role as a key, shown in the reader's language; older English rows as written", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, uid("role"));
    expect(await setUserRole(db, owner.email, "moderator", new Date("2099-01-02T00:00:00Z"))).toMatchObject({
      ok: true,
      changed: true,
    });
    expect(await setUserRole(db, owner.email, "owner", new Date("2099-01-03T00:00:00Z"))).toMatchObject({
      ok: true,
      changed: true,
    });
    await audit(
      db,
      null,
      "user.role",
      { type: "user", id: owner.id },
      "owner → moderator (npm run user:role)",
      "2099-01-01T00:00:00.000Z",
    );
    const { entries } = await listAuditLog(db, { page: 1, limit: 100 });
    const mine = entries.filter((e) => e.targetId === owner.id && e.action === "user.role");
    expect(mine.map((e) => shown(e.reason))).toEqual([
      "Moderator role taken back on the command line (npm run user:role)",
      "Made a moderator on the command line (npm run user:role)",
      "owner → moderator (npm run user:role)",
    ]);
    expect(inLocale("ta", () => shown(mine[1].reason))).toBe("கட்டளை வரியில் கண்காணிப்பாளராக ஆக்கப்பட்டார் (npm run user:role)");
  });

  it("keeps a moderator's words as typed, even when they look like a stored message", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, uid("typed"));
    const listing = await insertListing(db, owner, listingInput());
    const typed = '{"key":"report.autoHide.reason"}';
    expect(await hideListing(db, moderator, listing.id, typed)).toEqual({ ok: true });
    const [mine] = await listOwnerListings(db, owner.id);
    expect(mine.hiddenReason).toEqual({ text: typed });
  });

  it("emails the owner the reasons in words (the mail text is composed outside the models)", async () => {
    const { db } = ctx();
    const { listing } = await autoHidden(db);
    const site = { supportEmail: "support@bodima.test", siteName: "Bodima", siteUrl: TEST_SITE };
    const id = await emailOwnerAboutAutoHide(db, site, listing);
    const mail = await db.selectFrom("outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(mail.kind).toBe("listing-auto-hidden");
    expect(mail.text).toContain("Spam");
    expect(mail.text).not.toContain("report.reasons");
  });

  it("writes the owner's notice in the owner's preferred language (ADR 069)", async () => {
    const { db } = ctx();
    const { owner, listing } = await autoHidden(db);
    await db.updateTable("users").set({ locale: "ta" }).where("id", "=", owner.id).execute();
    const site = { supportEmail: "support@bodima.test", siteName: "Bodima", siteUrl: TEST_SITE };
    const id = await emailOwnerAboutAutoHide(db, site, listing);
    const mail = await db.selectFrom("outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(mail.subject).toContain("பரிசீலனை வரை மறைக்கப்பட்டுள்ளது");
    expect(mail.text).toContain("ஸ்பாம்");
    expect(mail.text).not.toMatch(/Hello|Spam/);
  });

  it("the migration turns stored English sentences into keys, and back", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, uid("old"));
    const old = await insertListing(db, owner, listingInput());
    const typed = await insertListing(db, owner, listingInput());
    const english = "Hidden automatically after reports from 3 people, until a moderator reviews it.";
    await db
      .updateTable("listings")
      .set({ status: "hidden", hiddenBy: "reports", hiddenReason: english })
      .where("id", "=", old.id)
      .execute();
    await db
      .updateTable("listings")
      .set({ status: "hidden", hiddenBy: "moderator", hiddenReason: english })
      .where("id", "=", typed.id)
      .execute();
    const auditId = uid("audit");
    await db
      .insertInto("audit_log")
      .values({
        id: auditId,
        actorId: null,
        actorEmail: null,
        action: "listing.auto-hide",
        targetType: "listing",
        targetId: String(old.id),
        reason: english,
        createdAt: new Date().toISOString(),
      })
      .execute();
    const reasons = async () => ({
      old: (await db.selectFrom("listings").select("hiddenReason").where("id", "=", old.id).executeTakeFirstOrThrow())
        .hiddenReason,
      typed: (
        await db.selectFrom("listings").select("hiddenReason").where("id", "=", typed.id).executeTakeFirstOrThrow()
      ).hiddenReason,
      audit: (await db.selectFrom("audit_log").select("reason").where("id", "=", auditId).executeTakeFirstOrThrow())
        .reason,
    });

    await up(db);
    const key = JSON.stringify({ key: "report.autoHide.reason", values: { count: 3 } });
    expect(await reasons()).toEqual({ old: key, typed: english, audit: key });
    const [hidden] = (await listOwnerListings(db, owner.id)).filter((l) => l.id === old.id);
    expect(shown(hidden.hiddenReason)).toBe(english);

    await down(db);
    expect(await reasons()).toEqual({ old: english, typed: english, audit: english });
  });
});
