import pino from "pino";
import { afterEach, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { parseEnv } from "../../app/env.server";
import { runJob } from "../../app/jobs/jobs.server";
import { setClock } from "../../app/lib/clock";
import { findListingBySlug, insertListing } from "../../app/models/listing.server";
import { markOwnerListingLet, renewOwnerListing } from "../../app/models/listing-availability.server";
import { hideListing } from "../../app/models/listing-moderation.server";
import { searchListings } from "../../app/models/listing-search.server";
import { listOwnerListings } from "../../app/models/owner-listing-reads.server";
import { toListingView } from "../../app/pages/listing-page.server";
import { action as answerLink, loader as openLink } from "../../app/routes/availability.$token";
import { parseBrowseFilters } from "../../app/schemas/browse-filters";
import { insertTestOwner, listingInput } from "../factories";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";
import "virtual:catalogue/listing-server";

// ADR 056: availability confirmed (posting, renewing and 'Still
// available' are the same act) and 'No longer available' (status 'let').

afterEach(() => setClock(undefined));

const DAY = 24 * 60 * 60 * 1000;
let seq = 0;

/** Moves the app's clock to `at` (setClock takes ISO text). */
const clockAt = (at: Date) => setClock(at.toISOString());

async function ownListing(db: DB, start: Date) {
  clockAt(start);
  const owner = await insertTestOwner(db, `avail-${++seq}-${Date.now()}`);
  const word = `availword${seq}x${Date.now().toString(36)}`;
  const { id, slug } = await insertListing(db, owner, listingInput({ title: `Annex ${word}` }));
  return { owner, id, slug, word };
}

/** A listing of its own owner, created at `start`, with its title. */
async function ownListingTitled(db: DB, start: Date) {
  const made = await ownListing(db, start);
  return { ...made, title: `Annex ${made.word}` };
}

const inBrowse = async (db: DB, word: string) =>
  (
    await searchListings(db, parseBrowseFilters(new URLSearchParams({ search: word })).filters, {
      page: 1,
      limit: 10,
    })
  ).ads.length;

describeEachDatabase("availability", (ctx) => {
  it("shows how long ago the owner confirmed it: posting, then 'Still available'", async () => {
    const { db } = ctx();
    const start = new Date("2026-12-01T08:00:00Z");
    const { owner, id, slug } = await ownListing(db, start);
    const line = async () => toListingView((await findListingBySlug(db, slug))!, 0).confirmedLine;
    expect(await line()).toBe("Availability confirmed today");
    clockAt(new Date(start.getTime() + DAY + 60_000));
    expect(await line()).toBe("Availability confirmed 1 day ago");
    clockAt(new Date(start.getTime() + 12 * DAY + 60_000));
    expect(await line()).toBe("Availability confirmed 12 days ago");
    expect((await renewOwnerListing(db, owner.id, id)).ok).toBe(true);
    expect(await line()).toBe("Availability confirmed today");
  });

  it("'No longer available' takes it out of browse at once; its page says so; 'Still available' brings it back", async () => {
    const { db } = ctx();
    const { owner, id, slug, word } = await ownListing(db, new Date("2026-12-01T08:00:00Z"));
    expect(await inBrowse(db, word)).toBe(1);
    expect((await markOwnerListingLet(db, owner.id, id)).ok).toBe(true);
    expect(await inBrowse(db, word)).toBe(0);
    const page = (await findListingBySlug(db, slug))!;
    expect(page).toMatchObject({ isLet: true, isPublic: false, isExpired: false, status: "let" });
    expect((await listOwnerListings(db, owner.id)).find((ad) => ad.id === id)?.status).toBe("let");

    clockAt(new Date("2026-12-05T08:00:00Z"));
    expect((await renewOwnerListing(db, owner.id, id)).ok).toBe(true);
    expect(await inBrowse(db, word)).toBe(1);
    const back = (await findListingBySlug(db, slug))!;
    expect(back).toMatchObject({ isLet: false, isPublic: true, status: "active" });
    // Brought back on the 5th: confirmed then, up for 30 days from then.
    expect(back.expiresAt).toBe("2027-01-04T08:00:00.000Z");
  });

  it("an expired ad can be marked let too; a hidden one cannot, and nobody else's", async () => {
    const { db } = ctx();
    const expired = await ownListing(db, new Date("2026-10-01T08:00:00Z"));
    clockAt(new Date("2026-12-01T08:00:00Z"));
    expect((await markOwnerListingLet(db, expired.owner.id, expired.id)).ok).toBe(true);

    const hidden = await ownListing(db, new Date("2026-12-01T08:00:00Z"));
    await hideListing(db, null, hidden.id, "test");
    expect(await markOwnerListingLet(db, hidden.owner.id, hidden.id)).toMatchObject({
      ok: false,
      code: "listing.hidden",
    });

    const theirs = await ownListing(db, new Date("2026-12-01T08:00:00Z"));
    const stranger = await insertTestOwner(db, `avail-stranger-${Date.now()}`);
    expect(await markOwnerListingLet(db, stranger.id, theirs.id)).toMatchObject({
      ok: false,
      code: "listing.not_found",
    });
    expect((await findListingBySlug(db, theirs.slug))?.isLet).toBe(false);
  });

  describeReminders(ctx);
});

// The reminder job signs links with the secret testContext's routes check them with.
const job = (db: DB) => ({
  db,
  env: parseEnv({ SITE_URL: TEST_SITE, NODE_ENV: "test", SESSION_SECRET: "y".repeat(64) }),
  storage: undefined as never,
  log: pino({ level: "silent" }),
  mail: () => undefined as never,
});

async function remindersTo(db: DB, email: string) {
  return db
    .selectFrom("outbox")
    .select(["subject", "text", "kind"])
    .where("to", "=", email)
    .where("kind", "=", "availability-reminder")
    .execute();
}

/** The one-click link of an email, as a path on the site. */
function linkIn(text: string, answer: "yes" | "no"): string {
  const match = new RegExp(`${TEST_SITE}(/(?:si/|ta/)?availability/[^\\s]+\\.${answer}\\.[^\\s]+)`).exec(text);
  if (!match) throw new Error(`no ${answer} link in: ${text}`);
  return match[1];
}

async function follow(db: DB, path: string, options: { post?: boolean; origin?: string } = {}) {
  const token = path.split("/availability/")[1];
  const request = new Request(`${TEST_SITE}${path}`, {
    method: options.post ? "POST" : "GET",
    headers: options.post ? { Origin: options.origin ?? TEST_SITE } : {},
  });
  const args = { request, context: testContext({ db }), params: { token } };
  const result = options.post
    ? await answerLink(args as unknown as Parameters<typeof answerLink>[0])
    : await openLink(args as unknown as Parameters<typeof openLink>[0]);
  return unwrapResult(result);
}

function describeReminders(ctx: () => { db: DB }) {
  it("asks the owner once, 14 days after the last confirmation, and again 14 days after they confirm", async () => {
    const { db } = ctx();
    const start = new Date("2027-02-01T08:00:00Z");
    const { owner, id, title } = await ownListingTitled(db, start);
    clockAt(new Date(start.getTime() + 13 * DAY));
    await runJob("availability-reminders", job(db));
    expect(await remindersTo(db, owner.email)).toHaveLength(0);

    clockAt(new Date(start.getTime() + 14 * DAY + 3_600_000));
    await runJob("availability-reminders", job(db));
    await runJob("availability-reminders", job(db));
    const [mail, ...more] = await remindersTo(db, owner.email);
    expect(more).toHaveLength(0);
    expect(mail.subject).toBe(`[Bodima] Is "${title}" still available?`);
    expect(mail.text).toContain("You confirmed 14 days ago");
    expect(mail.text).toContain("the listing leaves search 16 days from now");
    linkIn(mail.text, "yes");
    linkIn(mail.text, "no");

    // Confirmed on day 15: the next reminder is due on day 29, not before.
    clockAt(new Date(start.getTime() + 15 * DAY));
    expect((await renewOwnerListing(db, owner.id, id)).ok).toBe(true);
    clockAt(new Date(start.getTime() + 28 * DAY));
    await runJob("availability-reminders", job(db));
    expect(await remindersTo(db, owner.email)).toHaveLength(1);
    clockAt(new Date(start.getTime() + 29 * DAY + 3_600_000));
    await runJob("availability-reminders", job(db));
    expect(await remindersTo(db, owner.email)).toHaveLength(2);
  });

  it("'Still available' from the email, without signing in: opening the link changes nothing, its button confirms", async () => {
    const { db } = ctx();
    const start = new Date("2027-03-01T08:00:00Z");
    const { owner, slug } = await ownListingTitled(db, start);
    clockAt(new Date(start.getTime() + 14 * DAY + 3_600_000));
    await runJob("availability-reminders", job(db));
    const [mail] = await remindersTo(db, owner.email);
    const yes = linkIn(mail.text, "yes");
    const before = (await findListingBySlug(db, slug))!.expiresAt;

    const opened = await follow(db, yes);
    expect(opened.status).toBe(200);
    expect(opened.body.ask).toMatchObject({ answer: "yes" });
    expect((await findListingBySlug(db, slug))!.expiresAt).toBe(before);

    const answered = await follow(db, yes, { post: true });
    expect(answered.body).toMatchObject({ done: { answer: "yes" } });
    const after = (await findListingBySlug(db, slug))!;
    expect(after.expiresAt).not.toBe(before);
    expect(toListingView(after, 0).confirmedLine).toBe("Availability confirmed today");
  });

  it("'No longer available' from the email takes it out of browse; an altered, foreign or expired link does nothing", async () => {
    const { db } = ctx();
    const start = new Date("2027-04-01T08:00:00Z");
    const mine = await ownListingTitled(db, start);
    const theirs = await ownListingTitled(db, start);
    clockAt(new Date(start.getTime() + 14 * DAY + 3_600_000));
    await runJob("availability-reminders", job(db));
    const no = linkIn((await remindersTo(db, mine.owner.email))[0].text, "no");

    // The same link pointed at another listing, or turned into the other answer, is refused.
    const [, token] = no.split("/availability/");
    const [, answer, version, until, mac] = token.split(".");
    for (const altered of [
      `${theirs.id}.${answer}.${version}.${until}.${mac}`,
      `${mine.id}.yes.${version}.${until}.${mac}`,
    ]) {
      const refused = await follow(db, `/availability/${altered}`, { post: true });
      expect(refused.status).toBe(404);
      expect(refused.body.problem).toBe("invalid");
    }
    expect((await findListingBySlug(db, theirs.slug))!.isLet).toBe(false);
    expect((await follow(db, no, { post: true, origin: "https://evil.example" })).status).toBe(403);
    expect((await findListingBySlug(db, mine.slug))!.isLet).toBe(false);

    // Seven days on, the link has expired.
    clockAt(new Date(start.getTime() + 21 * DAY + 7_200_000));
    const late = await follow(db, no, { post: true });
    expect(late.body.problem).toBe("expired");
    expect((await findListingBySlug(db, mine.slug))!.isLet).toBe(false);

    clockAt(new Date(start.getTime() + 15 * DAY));
    expect((await follow(db, no, { post: true })).body).toMatchObject({ done: { answer: "no" } });
    expect((await findListingBySlug(db, mine.slug))!.isLet).toBe(true);
    expect(await inBrowse(db, mine.word)).toBe(0);
  });

  it("writes to the owner in their language, with links in it", async () => {
    const { db } = ctx();
    const start = new Date("2027-05-01T08:00:00Z");
    const { owner } = await ownListingTitled(db, start);
    await db.updateTable("users").set({ locale: "si" }).where("id", "=", owner.id).execute();
    clockAt(new Date(start.getTime() + 14 * DAY + 3_600_000));
    await runJob("availability-reminders", job(db));
    const [mail] = await remindersTo(db, owner.email);
    expect(mail.subject).toContain("තවමත් ලබා ගත හැකිද?");
    expect(linkIn(mail.text, "yes")).toMatch(/^\/si\/availability\//);
  });

  it("reminds a listing that fell due while the job did not run for a day, not one due long ago", async () => {
    const { db } = ctx();
    const start = new Date("2027-07-01T08:00:00Z");
    const late = await ownListingTitled(db, start);
    const longAgo = await ownListingTitled(db, new Date("2027-06-24T08:00:00Z"));
    // Day 15 for the first (due a day ago), day 22 for the second (due a week ago).
    clockAt(new Date(start.getTime() + 15 * DAY));
    await runJob("availability-reminders", job(db));
    expect(await remindersTo(db, late.owner.email)).toHaveLength(1);
    expect(await remindersTo(db, longAgo.owner.email)).toHaveLength(0);
  });

  it("does not remind about a listing that is hidden, let or already expired", async () => {
    const { db } = ctx();
    const start = new Date("2027-06-01T08:00:00Z");
    const hidden = await ownListingTitled(db, start);
    await hideListing(db, null, hidden.id, "test");
    const gone = await ownListingTitled(db, start);
    expect((await markOwnerListingLet(db, gone.owner.id, gone.id)).ok).toBe(true);
    const old = await ownListingTitled(db, new Date("2027-04-20T08:00:00Z"));
    clockAt(new Date(start.getTime() + 14 * DAY + 3_600_000));
    await runJob("availability-reminders", job(db));
    for (const { owner } of [hidden, gone, old]) expect(await remindersTo(db, owner.email)).toHaveLength(0);
  });
}
