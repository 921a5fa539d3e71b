import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { approveHeldListing, rejectHeldListing } from "../../app/mail/review-mails.server";
import { listAuditLog } from "../../app/models/audit-log.server";
import { sendHeldDigests } from "../../app/models/held-digest.server";
import { heldWaitStats, listHeldQueue } from "../../app/models/held-queue.server";
import { insertListing } from "../../app/models/listing.server";
import { restoreListing } from "../../app/models/listing-moderation.server";
import { holdForReview } from "../../app/models/listing-review.server";
import { listOwnerListings } from "../../app/models/owner-listing-reads.server";
import { suspendUser } from "../../app/models/user-moderation.server";
import { loadBrowsePage } from "../../app/pages/browse-page.server";
import { action as heldAction, loader as heldLoader } from "../../app/routes/admin.held";
import { loader as photoLoader } from "../../app/routes/photos.$key";
import type { HoldSignal } from "../../app/schemas/review-hold";
import { insertTestOwner, listingInput } from "../factories";
import { signedInAccount } from "../owner-fixtures";
import { listingWithPhoto, type Made, NOWHERE, publicView, VISIBLE } from "../public-view";
import { TEST_SITE, testContext } from "../request-context";
import { tempPhotoStorage } from "../temp-photo-storage";
import { describeEachDatabase } from "../test-db";

// Held for review (ADR 078). These tests hold listings through the model
// directly; the trust checks that hold them when an ad is posted or edited
// are tested in trust-checks.test.ts (ADR 082).

const SITE = { supportEmail: "support@example.lk", siteName: "Bodima", siteUrl: TEST_SITE };
const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60_000;
let seq = 0;
const uid = (tag: string) => `${tag}-${++seq}-${crypto.randomUUID().slice(0, 8)}`;

const moderator = { id: "mod-held", email: "mod-held@example.com" };

/** A listing of another owner whose photo the held one copies, and the signals that say so. */
async function copiedListing(db: DB, storage: ReturnType<typeof tempPhotoStorage>["storage"]) {
  const original = await listingWithPhoto(db, storage, await insertTestOwner(db, uid("original")));
  const owner = await insertTestOwner(db, uid("copier"), { name: "Nimal" });
  const copy = await listingWithPhoto(db, storage, owner);
  const signals: HoldSignal[] = [
    {
      kind: "photo-match",
      photoId: copy.photoId,
      otherListingId: original.id,
      otherPhotoId: original.photoId,
      distance: 3,
    },
    { kind: "scam", id: "advance-before-viewing", weight: 3, evidence: ["send the advance"] },
  ];
  return { original, copy, owner, signals };
}

async function listingRow(db: DB, id: number) {
  return db
    .selectFrom("listings")
    .select(["status", "hiddenBy", "hiddenReason", "statusBeforeHide", "expiresAt", "stateVersion"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

async function auditActions(db: DB, listingId: number) {
  const rows = await db
    .selectFrom("audit_log")
    .select(["action", "actorId", "reason"])
    .where("targetType", "=", "listing")
    .where("targetId", "=", String(listingId))
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows;
}

async function mailsTo(db: DB, to: string) {
  return db
    .selectFrom("outbox")
    .select(["kind", "subject", "text"])
    .where("to", "=", to)
    .orderBy("createdAt")
    .execute();
}

/** Whether the browse page's search for the listing's own word finds it. */
async function inBrowse(db: DB, listing: Made) {
  const page = await loadBrowsePage(db, new URL(`/browse?search=${listing.word}`, SITE.siteUrl), {}, SITE);
  return page.ads.some((ad) => ad.id === String(listing.id));
}

async function setLocale(db: DB, userId: string, locale: string) {
  await db.updateTable("users").set({ locale }).where("id", "=", userId).execute();
}

describeEachDatabase("held for review", (ctx) => {
  it("a held listing is in no public output, its owner sees why in My Ads, and the hold is in the audit log", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const { copy, owner, signals } = await copiedListing(db, storage);
    expect(await publicView(db, storage, copy)).toEqual(VISIBLE);
    expect(await inBrowse(db, copy)).toBe(true);
    const before = await listingRow(db, copy.id);

    expect(await holdForReview(db, copy.id, signals)).toBe("held");

    expect(await publicView(db, storage, copy)).toEqual(NOWHERE);
    expect(await inBrowse(db, copy)).toBe(false);
    const row = await listingRow(db, copy.id);
    expect(row.status).toBe("pending");
    expect(row.stateVersion).toBe(before.stateVersion + 1);
    const [mine] = await listOwnerListings(db, owner.id);
    expect(mine).toMatchObject({
      id: copy.id,
      status: "pending",
      heldReasons: ["review.owner.photoMatch", "review.owner.scam.advancePayment"],
    });
    expect(await auditActions(db, copy.id)).toEqual([{ action: "listing.hold", actorId: null, reason: null }]);
  });

  it("holding again while held replaces the signals without a second hold; other states cannot be held", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const { copy, signals } = await copiedListing(db, storage);
    expect(await holdForReview(db, copy.id, signals)).toBe("held");
    const price: HoldSignal = { kind: "price", rent: 4000, typicalLow: 12000, typicalHigh: 18000 };
    expect(await holdForReview(db, copy.id, [price])).toBe("updated");
    const holds = await db.selectFrom("listing_holds").select("signals").where("listingId", "=", copy.id).execute();
    expect(holds.map((h) => JSON.parse(h.signals))).toEqual([[price]]);
    expect((await auditActions(db, copy.id)).map((a) => a.action)).toEqual(["listing.hold"]);

    const owner = await insertTestOwner(db, uid("expired"));
    const expired = await insertListing(db, owner, listingInput({ title: "Expired one" }));
    await db.updateTable("listings").set({ status: "expired" }).where("id", "=", expired.id).execute();
    expect(await holdForReview(db, expired.id, [price])).toBe("not-holdable");
    expect((await listingRow(db, expired.id)).status).toBe("expired");
  });

  it("approving publishes the listing for a fresh 30 days and emails its owner in their language", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const { copy, owner, signals } = await copiedListing(db, storage);
    await setLocale(db, owner.id, "si");
    await holdForReview(db, copy.id, signals, new Date("2026-11-20T08:00:00.000Z"));
    const decidedAt = new Date("2026-11-27T10:00:00.000Z");
    const version = (await listingRow(db, copy.id)).stateVersion;

    expect(await approveHeldListing(db, SITE, moderator, copy.id, null, decidedAt)).toEqual({ ok: true });

    const row = await listingRow(db, copy.id);
    expect(row.status).toBe("active");
    expect(row.expiresAt).toBe(new Date(decidedAt.getTime() + 30 * DAY).toISOString());
    expect(row.stateVersion).toBe(version + 1);
    expect(await publicView(db, storage, copy)).toEqual(VISIBLE);
    const hold = await db
      .selectFrom("listing_holds")
      .selectAll()
      .where("listingId", "=", copy.id)
      .executeTakeFirstOrThrow();
    expect(hold).toMatchObject({ decision: "approved", decidedBy: moderator.id, decidedAt: decidedAt.toISOString() });
    expect((await auditActions(db, copy.id)).map((a) => [a.action, a.actorId])).toEqual([
      ["listing.hold", null],
      ["listing.approve", moderator.id],
    ]);
    const [mail] = await mailsTo(db, owner.email);
    expect(mail?.kind).toBe("listing-approved");
    expect(mail?.subject).toContain("දැන් පළ වී ඇත");
    expect(mail?.text).toContain(`#${copy.id}`);
    // Decided: out of the queue, and a second decision is a conflict.
    expect((await listHeldQueue(db)).items.some((i) => i.listing.id === copy.id)).toBe(false);
    expect(await rejectHeldListing(db, SITE, moderator, copy.id, "Late")).toEqual({
      ok: false,
      code: "moderation.conflict",
    });
  });

  it("rejecting hides the listing with the reason its owner reads; a restore puts it back in the queue", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const { copy, owner, signals } = await copiedListing(db, storage);
    await setLocale(db, owner.id, "ta");
    const heldAt = new Date("2026-11-25T08:00:00.000Z");
    await holdForReview(db, copy.id, signals, heldAt);

    expect(
      await rejectHeldListing(
        db,
        SITE,
        moderator,
        copy.id,
        "The photos belong to ad 12",
        new Date(heldAt.getTime() + MINUTE),
      ),
    ).toEqual({ ok: true });

    expect(await listingRow(db, copy.id)).toMatchObject({
      status: "hidden",
      hiddenBy: "moderator",
      hiddenReason: "The photos belong to ad 12",
      statusBeforeHide: "pending",
    });
    expect(await publicView(db, storage, copy)).toEqual(NOWHERE);
    const [mine] = await listOwnerListings(db, owner.id);
    expect(mine).toMatchObject({ status: "hidden", hiddenReason: { text: "The photos belong to ad 12" } });
    const [mail] = await mailsTo(db, owner.email);
    expect(mail?.kind).toBe("listing-rejected");
    expect(mail?.subject).toContain("வெளியிடப்படவில்லை");
    expect(mail?.text).toContain("The photos belong to ad 12");
    // The owner's sentence for each signal, in Tamil.
    expect(mail?.text).toContain("இதன் புகைப்படங்களில் ஒன்று வேறொரு உரிமையாளரின் விளம்பரத்திலும் உள்ளது.");
    expect((await auditActions(db, copy.id)).at(-1)).toEqual({
      action: "listing.reject",
      actorId: moderator.id,
      reason: "The photos belong to ad 12",
    });

    expect(await restoreListing(db, moderator, copy.id, "Second look")).toEqual({ ok: true });
    expect((await listingRow(db, copy.id)).status).toBe("pending");
    const item = (await listHeldQueue(db)).items.find((i) => i.listing.id === copy.id);
    expect(item?.signals).toEqual(signals);
    expect(await publicView(db, storage, copy)).toEqual(NOWHERE);
  });

  it("of two moderators deciding at once, one wins and the other is told it was already done", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const { copy, owner, signals } = await copiedListing(db, storage);
    await holdForReview(db, copy.id, signals);
    const other = { id: "mod-held-2", email: "mod2@example.com" };

    const results = await Promise.all([
      approveHeldListing(db, SITE, moderator, copy.id, null),
      rejectHeldListing(db, SITE, other, copy.id, "Copied photos"),
    ]);

    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, code: "moderation.conflict" }]);
    const decisions = (await auditActions(db, copy.id)).filter((a) => a.action !== "listing.hold");
    expect(decisions).toHaveLength(1);
    // The owner is told once, of the decision that stood.
    expect((await mailsTo(db, owner.email)).map((m) => m.kind)).toEqual([
      results[0]?.ok ? "listing-approved" : "listing-rejected",
    ]);
  });

  it("a suspended owner's held listing cannot be approved, and stays hidden", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const { copy, owner, signals } = await copiedListing(db, storage);
    await holdForReview(db, copy.id, signals);
    expect(await suspendUser(db, moderator, owner.id, "Scam")).toEqual({ ok: true });

    expect(await approveHeldListing(db, SITE, moderator, copy.id, null)).toEqual({
      ok: false,
      code: "moderation.owner_suspended",
    });
    expect(await listingRow(db, copy.id)).toMatchObject({ status: "hidden", hiddenBy: "suspension" });
    expect(await publicView(db, storage, copy)).toEqual(NOWHERE);
    expect((await listHeldQueue(db)).items.some((i) => i.listing.id === copy.id)).toBe(false);
  });

  it("the queue shows each held listing with the other listing it matches, oldest first", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const first = await copiedListing(db, storage);
    const second = await copiedListing(db, storage);
    const similar: HoldSignal = { kind: "similar-description", otherListingId: second.original.id, similarity: 0.86 };
    await holdForReview(db, second.copy.id, [similar], new Date("2026-11-02T00:00:00.000Z"));
    await holdForReview(db, first.copy.id, first.signals, new Date("2026-11-01T00:00:00.000Z"));

    const queue = await listHeldQueue(db);
    const ids = queue.items.map((i) => i.listing.id);
    expect(ids.indexOf(first.copy.id)).toBeLessThan(ids.indexOf(second.copy.id));
    expect(queue.openCount).toBeGreaterThanOrEqual(2);
    const item = queue.items.find((i) => i.listing.id === first.copy.id)!;
    expect(item.listing).toMatchObject({
      ownerName: "Nimal",
      photos: [{ id: first.copy.photoId, url: `/photos/${first.copy.photo}` }],
    });
    expect(item.others[first.original.id]).toMatchObject({
      id: first.original.id,
      photos: [{ id: first.original.photoId, url: `/photos/${first.original.photo}` }],
    });
    const otherItem = queue.items.find((i) => i.listing.id === second.copy.id)!;
    expect(otherItem.others[second.original.id]?.description).toBe(listingInput().description);
  });

  it("the wait figures are the median and 90th percentile of hold-to-decision times in the last 7 days", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    // Far from the other tests' times, so that only these decisions fall in the window.
    const now = new Date("2031-06-30T12:00:00.000Z");
    const waitsInMinutes = [10, 20, 30, 40, 50, 60, 70, 80, 90, 600];
    for (const [index, minutes] of waitsInMinutes.entries()) {
      const { copy, signals } = await copiedListing(db, storage);
      const heldAt = new Date(now.getTime() - 5 * DAY + index * 60 * MINUTE);
      await holdForReview(db, copy.id, signals, heldAt);
      const decide = index % 2 === 0 ? approveHeldListing : rejectHeldListing;
      expect(
        await decide(db, SITE, moderator, copy.id, "Checked", new Date(heldAt.getTime() + minutes * MINUTE)),
      ).toEqual({
        ok: true,
      });
    }
    // Decided 8 days ago: outside the window. Held but undecided: no wait yet.
    const old = await copiedListing(db, storage);
    await holdForReview(db, old.copy.id, old.signals, new Date(now.getTime() - 9 * DAY));
    await approveHeldListing(db, SITE, moderator, old.copy.id, null, new Date(now.getTime() - 8 * DAY));
    const open = await copiedListing(db, storage);
    await holdForReview(db, open.copy.id, open.signals, new Date(now.getTime() - 2 * DAY));

    // Ten waits, nearest rank: the 5th is the median, the 9th the 90th percentile.
    expect(await heldWaitStats(db, now)).toEqual({ decisions: 10, medianMs: 50 * MINUTE, p90Ms: 90 * MINUTE });
    expect(await heldWaitStats(db, new Date("2040-01-01T00:00:00.000Z"))).toEqual({
      decisions: 0,
      medianMs: null,
      p90Ms: null,
    });
    const audit = await listAuditLog(db, { page: 1, limit: 5 });
    expect(audit.entries.map((e) => e.action)).toContain("listing.hold");
  });

  it("moderators get at most one email an hour naming the listings newly held", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const mod = await insertTestOwner(db, uid("digest-mod"));
    await db.updateTable("users").set({ role: "moderator", locale: "si" }).where("id", "=", mod.id).execute();
    const start = new Date("2032-01-01T08:00:00.000Z");
    const compose = (digest: { holds: { listingId: number }[] }, locale: string) => ({
      subject: `${locale}: ${digest.holds.map((h) => h.listingId).join(",")}`,
      text: "",
    });
    const first = await copiedListing(db, storage);
    await holdForReview(db, first.copy.id, first.signals, start);
    // Only this test's held listings are still open and unmailed once the first run has mailed the rest.
    await sendHeldDigests(db, { supportEmail: SITE.supportEmail, compose }, start);
    const named = async () =>
      (
        await db
          .selectFrom("outbox")
          .select("subject")
          .where("to", "=", mod.email)
          .where("kind", "=", "held-digest")
          .execute()
      ).map((m) => m.subject);
    expect((await named()).at(-1)).toContain(String(first.copy.id));
    expect((await named()).at(-1)).toMatch(/^si: /);

    const second = await copiedListing(db, storage);
    await holdForReview(db, second.copy.id, second.signals, new Date(start.getTime() + 10 * MINUTE));
    expect(
      await sendHeldDigests(db, { supportEmail: SITE.supportEmail, compose }, new Date(start.getTime() + 30 * MINUTE)),
    ).toBe(0);
    expect(
      await sendHeldDigests(db, { supportEmail: SITE.supportEmail, compose }, new Date(start.getTime() + 61 * MINUTE)),
    ).toBe(1);
    expect((await named()).at(-1)).toBe(`si: ${second.copy.id}`);

    // Two runs at once (two workers): one email names the listing, the other run sends nothing.
    const third = await copiedListing(db, storage);
    await holdForReview(db, third.copy.id, third.signals, new Date(start.getTime() + 100 * MINUTE));
    const later = new Date(start.getTime() + 122 * MINUTE);
    const runs = await Promise.all([
      sendHeldDigests(db, { supportEmail: SITE.supportEmail, compose }, later),
      sendHeldDigests(db, { supportEmail: SITE.supportEmail, compose }, later),
    ]);
    expect(runs.sort()).toEqual([0, 1]);
    expect((await named()).filter((subject) => subject === `si: ${third.copy.id}`)).toHaveLength(1);
  });

  it("the /admin/held screen: moderators only, photos of held listings for moderators only, reason required to reject", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const { copy, signals } = await copiedListing(db, storage);
    await holdForReview(db, copy.id, signals);
    const mod = await signedInAccount(db, "held-mod", { role: "moderator" });
    const someone = await signedInAccount(db, "held-owner");
    const context = testContext({ db, storage });
    const request = (path: string, cookie?: string, form?: Record<string, string>) =>
      new Request(`${TEST_SITE}${path}`, {
        method: form ? "POST" : "GET",
        headers: {
          origin: TEST_SITE,
          ...(cookie ? { cookie } : {}),
          ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
        body: form ? new URLSearchParams(form) : undefined,
      });
    const photo = async (made: Made, cookie?: string) =>
      (
        (await photoLoader({
          request: request(`/photos/${made.photo}`, cookie),
          context,
          params: { key: made.photo },
        } as never)) as Response
      ).status;
    expect(await photo(copy)).toBe(404);
    expect(await photo(copy, someone.cookie)).toBe(404);
    expect(await photo(copy, mod.cookie)).toBe(200);

    const queue = await heldLoader({ request: request("/admin/held", mod.cookie), context, params: {} } as never);
    expect(queue.items.some((i) => i.listing.id === copy.id)).toBe(true);

    const act = (cookie: string, form: Record<string, string>) =>
      Promise.resolve(
        heldAction({ request: request("/admin/held", cookie, form), context, params: {} } as never),
      ).catch((thrown: unknown) => thrown);
    const forbidden = (await act(someone.cookie, { intent: "approve", listingId: String(copy.id) })) as
      | { init?: { status?: number } }
      | Response;
    expect(forbidden instanceof Response ? forbidden.status : forbidden.init?.status).toBe(403);
    const noReason = (await act(mod.cookie, { intent: "reject", listingId: String(copy.id), reason: "  " })) as {
      data: { error: string };
      init: { status: number };
    };
    expect(noReason.init.status).toBe(422);
    expect(noReason.data.error).toBe("admin.actions.errors.reasonRequired");
    expect((await listingRow(db, copy.id)).status).toBe("pending");

    const done = (await act(mod.cookie, {
      intent: "reject",
      listingId: String(copy.id),
      reason: "Copied photos",
    })) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/admin/held?done=reject");
    expect((await listingRow(db, copy.id)).hiddenReason).toBe("Copied photos");
  });
});
