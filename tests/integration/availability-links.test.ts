import pino from "pino";
import { afterEach, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { parseEnv } from "../../app/env.server";
import { runJob } from "../../app/jobs/jobs.server";
import { setClock } from "../../app/lib/clock";
import { insertListing } from "../../app/models/listing.server";
import { markOwnerListingLet, renewOwnerListing } from "../../app/models/listing-availability.server";
import { hideListing, restoreListing } from "../../app/models/listing-moderation.server";
import { updateOwnerListing } from "../../app/models/owner-listings.server";
import { reinstateUser, suspendUser } from "../../app/models/user-moderation.server";
import { action as answerLink, loader as openLink } from "../../app/routes/availability.$token";
import { insertTestOwner, listingInput } from "../factories";
import { LISTING_FORM } from "../owner-fixtures";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { tempPhotoStorage } from "../temp-photo-storage";
import { describeEachDatabase } from "../test-db";

// The availability emails' one-click links (ADR 056) answer one state of their
// listing (ADR 063): used once, void after any later decision from any path,
// and never acting for a suspended owner or on a hidden listing.

afterEach(() => setClock(undefined));

const DAY = 24 * 60 * 60 * 1000;
const START = new Date("2027-08-01T08:00:00Z");
const moderator = { id: "mod-links", email: "mod@example.com" };

// The reminder job signs links with the secret testContext's routes check them with.
const job = (db: DB) => ({
  db,
  env: parseEnv({ SITE_URL: TEST_SITE, NODE_ENV: "test", SESSION_SECRET: "y".repeat(64) }),
  storage: undefined as never,
  log: pino({ level: "silent" }),
  mail: () => undefined as never,
});

/** A listing posted at START, and the two links of the reminder its owner got 14 days later. */
async function remindedListing(db: DB) {
  setClock(START.toISOString());
  const owner = await insertTestOwner(db, `links-${crypto.randomUUID()}`);
  const listing = await insertListing(db, owner, listingInput({ title: "Annex near the library" }));
  setClock(new Date(START.getTime() + 14 * DAY + 3_600_000).toISOString());
  await runJob("availability-reminders", job(db));
  const mail = await db
    .selectFrom("outbox")
    .select("text")
    .where("to", "=", owner.email)
    .where("kind", "=", "availability-reminder")
    .executeTakeFirstOrThrow();
  const link = (answer: "yes" | "no") => {
    const match = new RegExp(`${TEST_SITE}(/availability/[^\\s]+\\.${answer}\\.[^\\s]+)`).exec(mail.text);
    if (!match) throw new Error(`no ${answer} link in: ${mail.text}`);
    return match[1];
  };
  return { owner: { ...owner, name: "Owner" }, listing, yes: link("yes"), no: link("no") };
}

/** Opens (GET) or answers (POST, from this site) a link, as the browser does. */
async function follow(db: DB, path: string, post = false) {
  const token = path.split("/availability/")[1];
  const request = new Request(`${TEST_SITE}${path}`, {
    method: post ? "POST" : "GET",
    headers: post ? { Origin: TEST_SITE } : {},
  });
  const args = { request, context: testContext({ db }), params: { token } } as never;
  return unwrapResult(post ? await answerLink(args) : await openLink(args));
}

async function stateOf(db: DB, id: number) {
  return db.selectFrom("listings").select(["status", "expiresAt"]).where("id", "=", id).executeTakeFirstOrThrow();
}

const USED = { status: 410, problem: "used" };
const GONE = { status: 404, problem: "gone" };
const outcome = (answer: { status: number; body: Record<string, unknown> }) => ({
  status: answer.status,
  problem: answer.body.problem,
});

describeEachDatabase("availability links", (ctx) => {
  it("work once: after one answer, both links of the email say they were used (no yes → no → yes)", async () => {
    const { db } = ctx();
    const { listing, yes, no } = await remindedListing(db);
    expect((await follow(db, yes, true)).body).toMatchObject({ done: { answer: "yes" } });
    const confirmed = await stateOf(db, listing.id);

    setClock(new Date(START.getTime() + 15 * DAY).toISOString());
    expect(outcome(await follow(db, no, true))).toEqual(USED);
    expect(outcome(await follow(db, yes, true))).toEqual(USED);
    const opened = await follow(db, yes);
    expect(outcome(opened)).toEqual(USED);
    expect(opened.body.ask).toBeNull();
    expect(await stateOf(db, listing.id)).toEqual(confirmed);
  });

  it("two answers at once: one acts, the other says it was used", async () => {
    const { db } = ctx();
    const { listing, yes, no } = await remindedListing(db);
    const answers = await Promise.all([follow(db, no, true), follow(db, yes, true)]);
    const done = answers.filter((answer) => answer.body.done);
    expect(done).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 410)).toHaveLength(1);
    const { answer } = done[0].body.done as { answer: string };
    expect((await stateOf(db, listing.id)).status).toBe(answer === "no" ? "let" : "active");
  });

  it("are void after a later decision from My Ads: 'No longer available', renewing, an edit", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();

    const letGo = await remindedListing(db);
    expect((await markOwnerListingLet(db, letGo.owner.id, letGo.listing.id)).ok).toBe(true);
    expect(outcome(await follow(db, letGo.yes, true))).toEqual(USED);
    expect((await stateOf(db, letGo.listing.id)).status).toBe("let");

    const renewed = await remindedListing(db);
    expect((await renewOwnerListing(db, renewed.owner.id, renewed.listing.id)).ok).toBe(true);
    expect(outcome(await follow(db, renewed.no, true))).toEqual(USED);
    expect((await stateOf(db, renewed.listing.id)).status).toBe("active");

    const edited = await remindedListing(db);
    await db
      .insertInto("listing_photos")
      .values({
        id: crypto.randomUUID(),
        listingId: edited.listing.id,
        userId: edited.owner.id,
        position: 0,
        width: 400,
        height: 300,
        bytes: 10,
        variants: "[]",
        alt: null,
        createdAt: new Date().toISOString(),
      })
      .execute();
    const saved = await updateOwnerListing(db, storage, edited.owner, edited.listing.id, LISTING_FORM, { files: [] });
    expect(saved.ok).toBe(true);
    expect(outcome(await follow(db, edited.no, true))).toEqual(USED);
    expect((await stateOf(db, edited.listing.id)).status).toBe("active");

    // My Ads' own buttons keep working.
    expect((await renewOwnerListing(db, letGo.owner.id, letGo.listing.id)).ok).toBe(true);
    expect((await stateOf(db, letGo.listing.id)).status).toBe("active");
  });

  it("do nothing for a suspended owner, whatever the listing's state, nor after reinstatement", async () => {
    const { db } = ctx();
    const { owner, listing, yes, no } = await remindedListing(db);
    expect(await suspendUser(db, moderator, owner.id, "Scam reports")).toEqual({ ok: true });
    for (const link of [yes, no]) {
      expect(outcome(await follow(db, link))).toEqual(GONE);
      expect(outcome(await follow(db, link, true))).toEqual(GONE);
    }
    expect((await stateOf(db, listing.id)).status).toBe("hidden");

    // The suspension decided its state: reinstated, the old email's links stay void.
    expect(await reinstateUser(db, moderator, owner.id, null)).toEqual({ ok: true });
    expect(outcome(await follow(db, yes, true))).toEqual(USED);
    expect((await stateOf(db, listing.id)).status).toBe("active");
  });

  it("ask the owner's standing too: a listing a suspension left up (as before migration 029) stays as it is", async () => {
    const { db } = ctx();
    const { owner, listing, yes } = await remindedListing(db);
    await db.updateTable("listings").set({ status: "let" }).where("id", "=", listing.id).execute();
    await db.updateTable("users").set({ status: "suspended" }).where("id", "=", owner.id).execute();
    expect(outcome(await follow(db, yes))).toEqual(GONE);
    expect(outcome(await follow(db, yes, true))).toEqual(GONE);
    expect((await stateOf(db, listing.id)).status).toBe("let");
  });

  it("do nothing to a hidden listing, and a restore does not revive them", async () => {
    const { db } = ctx();
    const { listing, yes, no } = await remindedListing(db);
    const before = await stateOf(db, listing.id);
    expect(await hideListing(db, moderator, listing.id, "Checking photos")).toEqual({ ok: true });
    expect(outcome(await follow(db, yes))).toEqual(GONE);
    expect(outcome(await follow(db, yes, true))).toEqual(GONE);
    expect(outcome(await follow(db, no, true))).toEqual(GONE);
    expect(await stateOf(db, listing.id)).toEqual({ ...before, status: "hidden" });

    expect(await restoreListing(db, moderator, listing.id, null)).toEqual({ ok: true });
    expect(outcome(await follow(db, no, true))).toEqual(USED);
    expect(await stateOf(db, listing.id)).toEqual(before);
  });
});
