import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import { insertListing } from "../../app/models/listing.server";
import { markOwnerListingLet } from "../../app/models/listing-availability.server";
import { hideListing } from "../../app/models/listing-moderation.server";
import { deleteOwnerListing, updateOwnerListing } from "../../app/models/owner-listings.server";
import { SHORTLIST_MAX, saveToShortlist, shortlistIds } from "../../app/models/shortlist.server";
import { suspendUser } from "../../app/models/user-moderation.server";
import { hashViewerId } from "../../app/models/view-tracking.server";
import { loader as sharedLoader } from "../../app/routes/shared-shortlist";
import { action, loader } from "../../app/routes/shortlist";
import { signVisitorId } from "../../app/security/visitor-id.server";
import { createLocalPhotoStorage } from "../../app/storage/storage.server";
import { insertOwnedListing, insertTestOwner, listingInput } from "../factories";
import { LISTING_FORM } from "../owner-fixtures";
import { resultHeaders, TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";
import "virtual:catalogue/shortlist";
import { alterEnd } from "../tamper";

// ADR 054: the shortlist through its route, as the Save button's form
// post sends it (cookies, origin, address), on both databases.

type ActionArgs = Parameters<typeof action>[0];
type LoaderArgs = Parameters<typeof loader>[0];
type Limiter = ReturnType<typeof createRateLimiter>;

const SECRET = "y".repeat(64); // testContext's sessionSecret, which signs visitor ids
const SALT = "s".repeat(32); // testContext's visitorSalt
const newBrowser = () => `bodima_vid=${signVisitorId(SECRET, randomBytes(16).toString("hex"))}`;
const keyOf = (cookie: string) => hashViewerId(SALT, "visitor", cookie.split("=")[1].split(".")[0]);

type Post = {
  cookie?: string;
  origin?: string | null;
  clientIp?: string;
  limiter?: Limiter;
  fields: Record<string, string>;
};

async function post(db: DB, { cookie, origin = TEST_SITE, clientIp, limiter, fields }: Post) {
  const headers: Record<string, string> = {};
  if (origin) headers.Origin = origin;
  if (cookie) headers.Cookie = cookie;
  // The Save button's fetcher, once hydrated, adds enhanced=1 (answered in place); without it a post is redirected.
  const form = new URLSearchParams({ enhanced: "1", ...fields });
  if (fields.enhanced === "") form.delete("enhanced");
  const request = new Request(`${TEST_SITE}/shortlist`, { method: "POST", headers, body: form });
  const context = testContext({ db, clientIp, limiter });
  const result = await action({ request, context, params: {} } as unknown as ActionArgs);
  const { status, body } = unwrapResult(result);
  return { status, body, setCookies: resultHeaders(result).getSetCookie(), context };
}

async function page(db: DB, cookie: string | undefined, query = "") {
  const request = new Request(`${TEST_SITE}/shortlist${query}`, { headers: cookie ? { Cookie: cookie } : {} });
  const result = await loader({ request, context: testContext({ db }), params: {} } as unknown as LoaderArgs);
  return { ...unwrapResult(result), setCookies: resultHeaders(result).getSetCookie() };
}

const save = (listing: number, extra: Record<string, string> = {}) => ({
  intent: "save",
  listing: String(listing),
  ...extra,
});
const remove = (listing: number) => ({ intent: "remove", listing: String(listing) });
async function sharedPage(db: DB, code: string) {
  const request = new Request(`${TEST_SITE}/s/${code}`);
  const args = { request, context: testContext({ db }), params: { code } };
  return unwrapResult(await sharedLoader(args as unknown as Parameters<typeof sharedLoader>[0]));
}

/** The code of the browser's shared link, as its shortlist page shows it. */
async function shareCode(db: DB, cookie: string): Promise<string | null> {
  const { url } = (await page(db, cookie)).body.share as { url: string | null };
  return url ? new URL(url).pathname.replace("/s/", "") : null;
}

const rowsOf = (body: Record<string, unknown>) => body.rows as { id: number; title: string; available: boolean }[];

describeEachDatabase("shortlist", (ctx) => {
  it("saves a place for a browser without cookies: it gets a visitor id, and the script's cookie names the place", async () => {
    const { db } = ctx();
    const id = await insertOwnedListing(db, "sl-first");
    const { status, body, setCookies } = await post(db, { fields: save(id, { back: "/browse?city=kandy" }) });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "saved", message: "Saved to your shortlist.", back: "/browse?city=kandy" });
    const visitor = setCookies.find((c) => c.startsWith("bodima_vid="));
    expect(visitor).toMatch(/HttpOnly/);
    expect(setCookies).toContainEqual(expect.stringMatching(new RegExp(`^bodima_saved=${id};`)));
    // The page, with the cookie the browser now has, lists it.
    const cookie = visitor!.split(";")[0];
    const shown = await page(db, cookie);
    expect(rowsOf(shown.body).map((r) => r.id)).toEqual([id]);
    expect(shown.setCookies).toContainEqual(expect.stringMatching(new RegExp(`^bodima_saved=${id};`)));
  });

  it("answers a post without JavaScript with a redirect to the shortlist, which says what happened", async () => {
    const { db } = ctx();
    const id = await insertOwnedListing(db, "sl-prg");
    const posted = await post(db, { fields: save(id, { enhanced: "", back: "/listing/x-1001?a=1" }) });
    expect(posted.status).toBe(303);
    const result = await action({
      request: new Request(`${TEST_SITE}/shortlist`, {
        method: "POST",
        headers: { Origin: TEST_SITE },
        body: new URLSearchParams({ intent: "save", listing: String(id), back: "/browse?city=kandy" }),
      }),
      context: testContext({ db }),
      params: {},
    } as unknown as ActionArgs);
    const location = (result as Response).headers.get("Location")!;
    expect(location).toBe("/shortlist?done=saved&back=%2Fbrowse%3Fcity%3Dkandy");
    // The redirect carries the new visitor's cookies, so the page it leads to shows the place.
    const cookie = posted.setCookies.find((c) => c.startsWith("bodima_vid="))!.split(";")[0];
    const shown = await page(db, cookie, "?done=saved&back=%2Flisting%2Fx-1001%3Fa%3D1");
    expect(shown.body.notice).toMatchObject({
      status: "saved",
      message: "Saved to your shortlist.",
      back: "/listing/x-1001?a=1",
    });
    expect(rowsOf(shown.body).map((r) => r.id)).toEqual([id]);
    // Only its own notices, and 'back' only on this site.
    expect((await page(db, cookie, "?done=hacked")).body.notice).toBeNull();
    expect((await page(db, cookie, "?done=removed&back=%2F%2Fevil.example")).body.notice).toMatchObject({
      back: "/browse",
    });
  });

  it("saves a place once however often it is saved, and removes it", async () => {
    const { db } = ctx();
    const cookie = newBrowser();
    const [a, b] = [await insertOwnedListing(db, "sl-a"), await insertOwnedListing(db, "sl-b")];
    await post(db, { cookie, fields: save(a) });
    await post(db, { cookie, fields: save(a) });
    const both = await post(db, { cookie, fields: save(b) });
    expect(both.body.saved).toEqual([a, b]);
    expect(both.setCookies).toContainEqual(expect.stringMatching(new RegExp(`^bodima_saved=${a}\\.${b};`)));
    const removed = await post(db, { cookie, fields: remove(a) });
    expect(removed.body).toMatchObject({ status: "removed", message: "Removed from your shortlist.", saved: [b] });
    await post(db, { cookie, fields: remove(b) });
    expect(await shortlistIds(db, keyOf(cookie))).toEqual([]);
    // An empty list clears the script's cookie.
    const cleared = await post(db, { cookie, fields: remove(b) });
    expect(cleared.setCookies).toContainEqual(expect.stringMatching(/^bodima_saved=; .*Max-Age=0/));
  });

  it(`holds at most ${SHORTLIST_MAX} places: one more is refused with a message, and nothing is lost`, async () => {
    const { db } = ctx();
    const cookie = newBrowser();
    const ids: number[] = [];
    for (let i = 0; i < SHORTLIST_MAX + 1; i++) ids.push(await insertOwnedListing(db, "sl-cap"));
    for (const id of ids.slice(0, SHORTLIST_MAX))
      expect((await post(db, { cookie, fields: save(id) })).status).toBe(200);
    const refused = await post(db, { cookie, fields: save(ids[SHORTLIST_MAX]) });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      status: "refused",
      message: `Your shortlist is full (${SHORTLIST_MAX} places). Remove one to save another.`,
    });
    expect(await shortlistIds(db, keyOf(cookie))).toEqual(ids.slice(0, SHORTLIST_MAX));
    // Saving one it already holds is no error.
    expect((await post(db, { cookie, fields: save(ids[3]) })).status).toBe(200);
  });

  it("never goes past the cap when saves arrive at once", async () => {
    const { db } = ctx();
    const cookie = newBrowser();
    const key = keyOf(cookie);
    const ids: number[] = [];
    for (let i = 0; i < SHORTLIST_MAX + 4; i++) ids.push(await insertOwnedListing(db, "sl-race"));
    const mayCreate = async () => true;
    for (const id of ids.slice(0, SHORTLIST_MAX - 2)) await saveToShortlist(db, key, id, { mayCreate });
    const outcomes = await Promise.all(
      ids.slice(SHORTLIST_MAX - 2).map((id) => saveToShortlist(db, key, id, { mayCreate })),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(2);
    expect(await shortlistIds(db, key)).toHaveLength(SHORTLIST_MAX);
  });

  it("refuses a place that is not public, and keeps a saved one marked when it goes", async () => {
    const { db } = ctx();
    const cookie = newBrowser();
    const [kept, hidden] = [await insertOwnedListing(db, "sl-kept"), await insertOwnedListing(db, "sl-hidden")];
    await hideListing(db, null, hidden, "test");
    const refused = await post(db, { cookie, fields: save(hidden) });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("This place is no longer available, so it cannot be saved.");
    const unknown = await post(db, { cookie, fields: save(9_999_999) });
    expect(unknown.status).toBe(409);

    await post(db, { cookie, fields: save(kept) });
    await hideListing(db, null, kept, "test");
    const rows = rowsOf((await page(db, cookie)).body);
    expect(rows).toEqual([expect.objectContaining({ id: kept, available: false })]);
    expect(rows[0]).not.toHaveProperty("phoneHref");
  });

  it("keeps saved places marked 'no longer available' when their owners delete or let them, or they expire", async () => {
    const { db } = ctx();
    const storage = createLocalPhotoStorage(fs.mkdtempSync(path.join(os.tmpdir(), "bodima-shortlist-")));
    const owner = await insertTestOwner(db, `sl-owner-${Date.now()}`);
    const add = async (title: string) => (await insertListing(db, owner, listingInput({ title }))).id;
    const [deleted, letGo, expiring, unsaved] = [
      await add("Deleted annex"),
      await add("Let room"),
      await add("Expiring room"),
      await add("Never saved room"),
    ];
    const cookie = newBrowser();
    for (const id of [deleted, letGo, expiring])
      expect((await post(db, { cookie, fields: save(id) })).status).toBe(200);

    expect(await deleteOwnerListing(db, storage, owner.id, deleted)).toEqual({ ok: true });
    expect(await markOwnerListingLet(db, owner.id, letGo)).toMatchObject({ ok: true });
    await db
      .updateTable("listings")
      .set({ expiresAt: "2000-01-01T00:00:00.000Z" })
      .where("id", "=", expiring)
      .execute();
    expect(await deleteOwnerListing(db, storage, owner.id, unsaved)).toEqual({ ok: true });

    // Marked by ad number alone: a place no longer public shows nothing its owner wrote.
    const rows = rowsOf((await page(db, cookie)).body);
    expect(rows).toEqual([
      { id: deleted, available: false },
      { id: letGo, available: false },
      { id: expiring, available: false },
    ]);
    // The deleted one is gone for everyone else, and its owner's count; nobody saved the other, so it went whole.
    const left = await db.selectFrom("listings").select(["id", "status"]).where("userId", "=", owner.id).execute();
    expect(left).toContainEqual({ id: deleted, status: "deleted" });
    expect(left.map((row) => row.id)).not.toContain(unsaved);
    // Removing it from the list works like any other.
    await post(db, { cookie, fields: remove(deleted) });
    expect(rowsOf((await page(db, cookie)).body).map((row) => row.id)).toEqual([letGo, expiring]);
  });

  it("never shows what an owner wrote for a place no longer public: an edited hidden title stays off both pages", async () => {
    const { db } = ctx();
    const storage = createLocalPhotoStorage(fs.mkdtempSync(path.join(os.tmpdir(), "bodima-shortlist-")));
    const owner = { ...(await insertTestOwner(db, `sl-text-${Date.now()}`)), name: "Owner" };
    const suspended = await insertTestOwner(db, `sl-suspended-${Date.now()}`);
    const titles = ["Hidden annex", "Let annex", "Expired annex", "Deleted annex", "Suspended annex"];
    const [hidden, letGo, expired, deleted] = await Promise.all(
      titles.slice(0, 4).map(async (title) => (await insertListing(db, owner, listingInput({ title }))).id),
    );
    const ofSuspended = (await insertListing(db, suspended, listingInput({ title: titles[4] }))).id;
    const cookie = newBrowser();
    for (const id of [hidden, letGo, expired, deleted, ofSuspended])
      expect((await post(db, { cookie, fields: save(id) })).status).toBe(200);
    await post(db, { cookie, fields: { intent: "share" } });
    const code = (await shareCode(db, cookie))!;

    await hideListing(db, null, hidden, "Scam");
    // Its owner can still edit a hidden listing: whatever they write must not reach the lists.
    await db
      .insertInto("listing_photos")
      .values({
        id: crypto.randomUUID(),
        listingId: hidden,
        userId: owner.id,
        position: 0,
        width: 400,
        height: 300,
        bytes: 10,
        variants: "[]",
        alt: null,
        createdAt: new Date().toISOString(),
      })
      .execute();
    const edited = { ...LISTING_FORM, title: "Pay the advance by eZ Cash to 0770000000 today" };
    expect((await updateOwnerListing(db, storage, owner, hidden, edited, { files: [] })).ok).toBe(true);
    expect((await markOwnerListingLet(db, owner.id, letGo)).ok).toBe(true);
    await db.updateTable("listings").set({ expiresAt: "2000-01-01T00:00:00.000Z" }).where("id", "=", expired).execute();
    expect(await deleteOwnerListing(db, storage, owner.id, deleted)).toEqual({ ok: true });
    expect(await suspendUser(db, { id: "mod-sl", email: "mod@example.com" }, suspended.id, "Scam")).toEqual({
      ok: true,
    });

    for (const shown of [await page(db, cookie), await sharedPage(db, code)]) {
      expect(rowsOf(shown.body)).toEqual(
        [hidden, letGo, expired, deleted, ofSuspended].map((id) => ({ id, available: false })),
      );
      const text = JSON.stringify(shown.body);
      for (const written of [
        ...titles,
        edited.title,
        "annex",
        "0770000000",
        "0771234567",
        owner.phone,
        "A room for a student",
      ])
        expect(text).not.toContain(written);
    }
  });

  it("answers bad input with a message and a 400, saving nothing", async () => {
    const { db } = ctx();
    const cookie = newBrowser();
    const inputs: Record<string, string>[] = [
      { intent: "save", listing: "abc" },
      { intent: "save", listing: "-5" },
      { intent: "save" },
      { intent: "steal", listing: "1001" },
      {},
    ];
    for (const fields of inputs) {
      const { status, body } = await post(db, { cookie, fields });
      expect(status).toBe(400);
      expect(body.message).toBe("That did not work. Please go back and try again.");
    }
    expect(await shortlistIds(db, keyOf(cookie))).toEqual([]);
  });

  it("refuses another site's form, and a post that names no origin", async () => {
    const { db } = ctx();
    const cookie = newBrowser();
    const id = await insertOwnedListing(db, "sl-csrf");
    for (const origin of ["https://evil.example", null]) {
      const { status, body } = await post(db, { cookie, origin, fields: save(id) });
      expect(status).toBe(403);
      expect(body.message).toBe("This request did not come from our site, so nothing was changed.");
    }
    expect(await shortlistIds(db, keyOf(cookie))).toEqual([]);
  });

  it("keeps one browser's list out of reach of another: a made-up or altered visitor cookie gets a list of its own", async () => {
    const { db } = ctx();
    const owner = newBrowser();
    const [a, b] = [await insertOwnedListing(db, "sl-mine"), await insertOwnedListing(db, "sl-theirs")];
    await post(db, { cookie: owner, fields: save(a) });
    const [id, signature] = owner.split("=")[1].split(".");
    const altered = `bodima_vid=${id}.${alterEnd(signature)}`;
    for (const cookie of [altered, `bodima_vid=${id}`]) {
      const attempt = await post(db, { cookie, fields: remove(a) });
      expect(attempt.setCookies.some((c) => c.startsWith("bodima_vid=") && !c.includes(id))).toBe(true);
      await post(db, { cookie, fields: save(b) });
      // Nothing of theirs shows on a page asked for with the altered cookie.
      expect(rowsOf((await page(db, cookie)).body)).toEqual([]);
    }
    expect(await shortlistIds(db, keyOf(owner))).toEqual([a]);
  });

  it("limits new shortlists per address, not saves to an existing one", async () => {
    const { db } = ctx();
    const limiter = createRateLimiter(createMemoryStore(), { shortlistNew: { max: 1, windowSeconds: 3600 } });
    const id = await insertOwnedListing(db, "sl-flood");
    const other = await insertOwnedListing(db, "sl-flood-2");
    const first = newBrowser();
    expect((await post(db, { cookie: first, limiter, clientIp: "198.51.100.7", fields: save(id) })).status).toBe(200);
    const flood = await post(db, { cookie: newBrowser(), limiter, clientIp: "198.51.100.7", fields: save(id) });
    expect(flood.status).toBe(429);
    expect(flood.body.message).toBe("Too many new shortlists from your network. Please try again later.");
    // The first browser's list still takes places.
    expect((await post(db, { cookie: first, limiter, clientIp: "198.51.100.7", fields: save(other) })).status).toBe(
      200,
    );
  });

  it("takes 'back' from the page that posted (its Referer), in that page's language, never another site", async () => {
    const { db } = ctx();
    const id = await insertOwnedListing(db, "sl-referer");
    const from = async (referer: string) => {
      const request = new Request(`${TEST_SITE}/shortlist`, {
        method: "POST",
        headers: { Origin: TEST_SITE, Referer: referer, Cookie: newBrowser() },
        body: new URLSearchParams({ intent: "save", listing: String(id), enhanced: "1" }),
      });
      const result = await action({ request, context: testContext({ db }), params: {} } as unknown as ActionArgs);
      return unwrapResult(result).body.back;
    };
    expect(await from(`${TEST_SITE}/browse?city=kandy`)).toBe("/browse?city=kandy");
    // React Router puts the language back in front of the link.
    expect(await from(`${TEST_SITE}/si/listing/room-1001`)).toBe("/listing/room-1001");
    expect(await from("https://evil.example/browse")).toBeNull();
    expect(await from(`${TEST_SITE}/shortlist`)).toBeNull();
    // A page of ours whose path is another site once its language is dropped (ADR 062).
    expect(await from(`${TEST_SITE}/si//evil.example/phish`)).toBeNull();
    expect(await from(`${TEST_SITE}/ta/%2F/evil.example`)).toBeNull();
  });

  it("sends 'back' only to a path on this site", async () => {
    const { db } = ctx();
    const id = await insertOwnedListing(db, "sl-back");
    for (const back of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "/si//evil.example"]) {
      const { body } = await post(db, { cookie: newBrowser(), fields: save(id, { back }) });
      expect(body.back).toBe("/browse");
    }
  });

  it("shows an empty list to a browser that saved nothing", async () => {
    const { db } = ctx();
    expect(rowsOf((await page(db, undefined)).body)).toEqual([]);
    expect(rowsOf((await page(db, newBrowser())).body)).toEqual([]);
  });

  it("shares a list by a link that shows it as it is now, read-only, until sharing stops", async () => {
    const { db } = ctx();
    const owner = newBrowser();
    const [a, b] = [await insertOwnedListing(db, "sl-share-a"), await insertOwnedListing(db, "sl-share-b")];
    await post(db, { cookie: owner, fields: save(a) });
    await post(db, { cookie: owner, fields: save(b) });
    const shared = await post(db, { cookie: owner, fields: { intent: "share" } });
    expect(shared.body).toMatchObject({ status: "shared" });
    const code = await shareCode(db, owner);
    // No personal data in the link: a random code of letters and digits.
    expect(code).toMatch(/^[a-z2-9]{12}$/);
    expect((await page(db, owner)).body.share).toMatchObject({ url: `${TEST_SITE}/s/${code}` });
    expect(rowsOf((await sharedPage(db, code!)).body).map((r) => r.id)).toEqual([a, b]);

    // Sharing again keeps the link; the link shows the list as it is now.
    await post(db, { cookie: owner, fields: { intent: "share" } });
    expect(await shareCode(db, owner)).toBe(code);
    await post(db, { cookie: owner, fields: remove(a) });
    expect(rowsOf((await sharedPage(db, code!)).body).map((r) => r.id)).toEqual([b]);

    // Someone else's browser cannot stop it (it acts on a list of its own, if any).
    await post(db, { cookie: newBrowser(), fields: { intent: "unshare" } });
    expect((await sharedPage(db, code!)).status).toBe(200);

    const stopped = await post(db, { cookie: owner, fields: { intent: "unshare" } });
    expect(stopped.body).toMatchObject({
      status: "unshared",
      message: "Sharing stopped: the old link no longer works.",
    });
    const gone = await sharedPage(db, code!);
    expect(gone.status).toBe(404);
    expect(gone.body.rows).toBeNull();
    expect(await shareCode(db, owner)).toBeNull();

    // Sharing anew makes a new link; the old one stays dead.
    await post(db, { cookie: owner, fields: { intent: "share" } });
    const again = await shareCode(db, owner);
    expect(again).not.toBe(code);
    expect((await sharedPage(db, again!)).status).toBe(200);
    expect((await sharedPage(db, code!)).status).toBe(404);
  });

  it("answers 404 for codes never shared, whatever they look like", async () => {
    const { db } = ctx();
    for (const code of ["abcdefghjkmn", "ABCDEFGHJKMN", "x", "' or 1=1 --", "a".repeat(500)])
      expect((await sharedPage(db, code)).status).toBe(404);
  });

  it("has nothing to share for a browser without a list", async () => {
    const { db } = ctx();
    const { status } = await post(db, { cookie: newBrowser(), fields: { intent: "share" } });
    expect(status).toBe(400);
  });

  it("redirects a share without JavaScript to the page, which says it is shared", async () => {
    const { db } = ctx();
    const cookie = newBrowser();
    await post(db, { cookie, fields: save(await insertOwnedListing(db, "sl-share-prg")) });
    const posted = await post(db, { cookie, fields: { intent: "share", enhanced: "" } });
    expect(posted.status).toBe(303);
    expect((await page(db, cookie, "?done=shared")).body.notice).toMatchObject({
      status: "shared",
      message: "Your shortlist is shared. Send the link below to anyone you like.",
    });
  });
});
