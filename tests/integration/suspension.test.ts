import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { markOwnerListingLet } from "../../app/models/listing-availability.server";
import { hideListing, restoreListing } from "../../app/models/listing-moderation.server";
import { createReport } from "../../app/models/report.server";
import { reinstateUser, suspendUser } from "../../app/models/user-moderation.server";
import { insertTestOwner, reportInput } from "../factories";
import { listingWithPhoto, NOWHERE, PAGE_ONLY, publicView, VISIBLE } from "../public-view";
import { tempPhotoStorage } from "../temp-photo-storage";
import { describeEachDatabase } from "../test-db";

// Suspending an owner takes every one of their listings out of public view,
// whatever its state, and reinstating them puts each back as it was; a
// moderator's restore returns a listing to its state before the hide (ADR 063).

const moderator = { id: "mod-suspension", email: "mod@example.com" };
async function statusOf(db: DB, id: number) {
  return db.selectFrom("listings").select(["status", "hiddenBy"]).where("id", "=", id).executeTakeFirstOrThrow();
}

describeEachDatabase("suspension and restore", (ctx) => {
  it("suspending an owner hides every listing whatever its state; reinstating puts each back as it was", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const owner = await insertTestOwner(db, `susp-${crypto.randomUUID()}`);
    const active = await listingWithPhoto(db, storage, owner);
    const expired = await listingWithPhoto(db, storage, owner);
    await db.updateTable("listings").set({ status: "expired" }).where("id", "=", expired.id).execute();
    const letGo = await listingWithPhoto(db, storage, owner);
    expect((await markOwnerListingLet(db, owner.id, letGo.id)).ok).toBe(true);
    const pending = await listingWithPhoto(db, storage, owner);
    await db.updateTable("listings").set({ status: "pending" }).where("id", "=", pending.id).execute();
    const hidden = await listingWithPhoto(db, storage, owner);
    expect(await hideListing(db, moderator, hidden.id, "Spam")).toEqual({ ok: true });

    // Before: the active one everywhere; the expired and let ones keep their page, API entry and photos.
    expect(await publicView(db, storage, active)).toEqual(VISIBLE);
    for (const shown of [expired, letGo]) expect(await publicView(db, storage, shown)).toEqual(PAGE_ONLY);

    expect(await suspendUser(db, moderator, owner.id, "Scam reports")).toEqual({ ok: true });
    for (const listing of [active, expired, letGo, pending, hidden])
      expect({ id: listing.id, ...(await publicView(db, storage, listing)) }).toEqual({ id: listing.id, ...NOWHERE });
    // A moderator cannot bring one back while its owner is suspended.
    expect(await restoreListing(db, moderator, letGo.id, null)).toEqual({
      ok: false,
      code: "moderation.owner_suspended",
    });

    expect(await reinstateUser(db, moderator, owner.id, "Appeal accepted")).toEqual({ ok: true });
    expect(await statusOf(db, active.id)).toEqual({ status: "active", hiddenBy: null });
    expect(await statusOf(db, expired.id)).toEqual({ status: "expired", hiddenBy: null });
    expect(await statusOf(db, letGo.id)).toEqual({ status: "let", hiddenBy: null });
    expect(await statusOf(db, pending.id)).toEqual({ status: "pending", hiddenBy: null });
    expect(await statusOf(db, hidden.id)).toEqual({ status: "hidden", hiddenBy: "moderator" });
    expect(await publicView(db, storage, active)).toEqual(VISIBLE);
    expect((await publicView(db, storage, letGo)).inList).toBe(false);
  });

  it("a 'let' listing, public on its page, can be reported; hidden by reports and restored, it is 'let' again", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const owner = await insertTestOwner(db, `let-report-${crypto.randomUUID()}`);
    const letGo = await listingWithPhoto(db, storage, owner);
    expect((await markOwnerListingLet(db, owner.id, letGo.id)).ok).toBe(true);
    const reporter = { originGroup: "203.0.113.0/24", visitorKey: "visitor-1", userId: null };
    const reported = await createReport(db, reportInput(letGo.id, { reason: "fake-listing" }), {
      autoHideAt: 1,
      reporter,
    });
    expect(reported).toMatchObject({ ok: true, autoHidden: true });
    expect(await statusOf(db, letGo.id)).toEqual({ status: "hidden", hiddenBy: "reports" });
    expect(await publicView(db, storage, letGo)).toEqual(NOWHERE);
    expect(await restoreListing(db, moderator, letGo.id, "Reports were mistaken")).toEqual({ ok: true });
    expect(await statusOf(db, letGo.id)).toEqual({ status: "let", hiddenBy: null });
  });

  it("restoring a hidden listing returns it to its state before the hide, not to active", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const owner = await insertTestOwner(db, `restore-${crypto.randomUUID()}`);
    const letGo = await listingWithPhoto(db, storage, owner);
    expect((await markOwnerListingLet(db, owner.id, letGo.id)).ok).toBe(true);
    const pending = await listingWithPhoto(db, storage, owner);
    await db.updateTable("listings").set({ status: "pending" }).where("id", "=", pending.id).execute();

    for (const listing of [letGo, pending]) {
      expect(await hideListing(db, moderator, listing.id, "Checking")).toEqual({ ok: true });
      expect(await restoreListing(db, moderator, listing.id, "Fine")).toEqual({ ok: true });
    }
    expect(await statusOf(db, letGo.id)).toEqual({ status: "let", hiddenBy: null });
    expect(await statusOf(db, pending.id)).toEqual({ status: "pending", hiddenBy: null });
    expect((await publicView(db, storage, letGo)).inList).toBe(false);
    expect((await publicView(db, storage, pending)).page).toBe(404);

    // Hidden by a moderator, then by a suspension over it: the state before the first hide is the one kept.
    expect(await hideListing(db, moderator, letGo.id, "Again")).toEqual({ ok: true });
    expect(await suspendUser(db, moderator, owner.id, "Scam reports")).toEqual({ ok: true });
    expect(await reinstateUser(db, moderator, owner.id, null)).toEqual({ ok: true });
    expect(await statusOf(db, letGo.id)).toEqual({ status: "hidden", hiddenBy: "moderator" });
    expect(await restoreListing(db, moderator, letGo.id, null)).toEqual({ ok: true });
    expect(await statusOf(db, letGo.id)).toEqual({ status: "let", hiddenBy: null });
  });
});
