import { createHash, createHmac } from "node:crypto";
import { afterEach, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { setClock } from "../../app/lib/clock";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import * as manageRoute from "../../app/routes/alerts.manage.$token";
import * as newRoute from "../../app/routes/alerts.new";
import * as settingsRoute from "../../app/routes/dashboard.settings";
import * as signupRoute from "../../app/routes/signup";
import { signedInAccount, TEST_PASSWORD } from "../owner-fixtures";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";

// ADR 066 and 067 through the routes as the pages post them, on both
// databases: an account that signed up with someone else's address gets no
// alert started at once and no manage link anywhere; manage links are random,
// expire after 30 days, can all be signed out, and the old signed links open
// nothing (their page offers to email a fresh link to the address, limited).

const SECRET = "y".repeat(64); // testContext's sessionSecret
const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date();
const at = (days: number, hours = 0) => new Date(T0.getTime() + days * DAY + hours * 60 * 60 * 1000).toISOString();
afterEach(() => setClock(undefined));

// biome-ignore lint/suspicious/noExplicitAny: each route's args differ only in params
type AnyArgs = any;
type Limiter = ReturnType<typeof createRateLimiter>;
type Call = { cookie?: string; ip?: string; limiter?: Limiter };

function context(db: DB, call: Call = {}) {
  return testContext({ db, clientIp: call.ip ?? "198.51.100.7", limiter: call.limiter });
}

function post(path: string, fields: Record<string, string>, call: Call = {}) {
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: TEST_SITE });
  if (call.cookie) headers.set("Cookie", call.cookie);
  return new Request(`${TEST_SITE}${path}`, { method: "POST", headers, body: new URLSearchParams(fields) });
}

let seq = 0;
const uniqueWord = () => `linkword${Date.now().toString(36)}${++seq}`;

async function ask(db: DB, email: string, query: string, call: Call = {}) {
  const request = post("/alerts/new", { email, query, website: "" }, call);
  return newRoute.action({ request, context: context(db, call), params: {} } as AnyArgs);
}

async function managePage(db: DB, token: string) {
  const request = new Request(`${TEST_SITE}/alerts/manage/${token}`);
  return unwrapResult(await manageRoute.loader({ request, context: context(db), params: { token } } as AnyArgs));
}

async function manage(db: DB, token: string, fields: Record<string, string>, call: Call = {}) {
  const request = post(`/alerts/manage/${token}`, fields, call);
  return manageRoute.action({ request, context: context(db, call), params: { token } } as AnyArgs);
}

const mailsTo = (db: DB, email: string) =>
  db.selectFrom("outbox").select(["kind", "subject", "text"]).where("to", "=", email).orderBy("createdAt").execute();

const manageTokenIn = (text: string) => {
  const match = new RegExp(`${TEST_SITE}/alerts/manage/([A-Za-z0-9_-]{43})`).exec(text);
  if (!match) throw new Error(`no manage link in: ${text}`);
  return match[1];
};

/** The manage link a confirmed, signed-in owner's own alert request leads to. */
async function ownManageToken(db: DB, email: string, cookie: string, query: string) {
  const location = ((await ask(db, email, query, { cookie })) as Response).headers.get("Location")!;
  expect(location).toMatch(/^\/alerts\/manage\/[A-Za-z0-9_-]{43}\?done=(on|exists)$/);
  return location.split("/")[3].split("?")[0];
}

describeEachDatabase("alert links", (ctx) => {
  it("an account made with someone else's address gets no manage link and no alert started at once", async () => {
    const { db } = ctx();
    const word = uniqueWord();
    const victim = `victim-${word}@example.lk`;
    // The attacker signs up with the victim's address: nothing checks it until its link is opened.
    const signup = post("/signup", {
      name: "Not The Owner",
      email: victim,
      phone: "0771234567",
      password: TEST_PASSWORD,
      confirmPassword: TEST_PASSWORD,
      terms: "on",
    });
    const signedUp = (await signupRoute.action({
      request: signup,
      context: context(db),
      params: {},
    } as AnyArgs)) as Response;
    const cookie = signedUp.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");

    // Asking for an alert for 'their own' address: the stranger's answer, and the alert waits for the email.
    const asked = (await ask(db, victim, `search=${word}`, { cookie })) as Response;
    expect(asked.headers.get("Location")).toMatch(/^\/alerts\/new\?.*sent=1$/);
    const [row] = await db.selectFrom("search_alerts").select("confirmedAt").where("email", "=", victim).execute();
    expect(row.confirmedAt).toBeNull();
    expect((await mailsTo(db, victim)).map((m) => m.kind)).toEqual(["confirm-email", "alert-confirm"]);
    // The new-alert page does not promise it starts at once.
    const page = (await newRoute.loader({
      request: new Request(`${TEST_SITE}/alerts/new?search=${word}`, { headers: { Cookie: cookie } }),
      context: context(db),
      params: {},
    } as AnyArgs)) as { signedIn: boolean };
    expect(page.signedIn).toBe(false);

    // Settings: no manage link in the page, and asking for one is refused.
    const settings = (await settingsRoute.loader({
      request: new Request(`${TEST_SITE}/dashboard/settings`, { headers: { Cookie: cookie } }),
      context: context(db),
      params: {},
    } as AnyArgs)) as Record<string, unknown>;
    expect(settings.alertsOpen).toBe(false);
    expect(JSON.stringify(settings)).not.toContain("/alerts/manage/");
    const opened = await settingsRoute.action({
      request: post("/dashboard/settings", { intent: "alerts" }, { cookie }),
      context: context(db),
      params: {},
    } as AnyArgs);
    expect(unwrapResult(opened).status).toBe(403);
    expect(await db.selectFrom("alert_manage_links").select("email").where("email", "=", victim).execute()).toEqual(
      // One link, in the confirmation email to the victim's inbox only.
      [{ email: victim }],
    );
  });

  it("a confirmed owner's manage link works for 30 days; then its page offers a fresh one by email", async () => {
    const { db } = ctx();
    const word = uniqueWord();
    const { owner, cookie } = await signedInAccount(db, word);
    setClock(at(0));
    // Settings opens the alerts through a post that makes a fresh link.
    const fromSettings = (await settingsRoute.action({
      request: post("/dashboard/settings", { intent: "alerts" }, { cookie }),
      context: context(db),
      params: {},
    } as AnyArgs)) as Response;
    expect(fromSettings.headers.get("Location")).toMatch(/^\/alerts\/manage\/[A-Za-z0-9_-]{43}$/);
    const token = await ownManageToken(db, owner.email, cookie, `search=${word}`);
    // Random: two links for one address differ, and the table keeps only hashes.
    expect(fromSettings.headers.get("Location")).not.toContain(token);
    const stored = await db
      .selectFrom("alert_manage_links")
      .select("tokenHash")
      .where("email", "=", owner.email)
      .execute();
    expect(stored.map((r) => r.tokenHash)).toContain(createHash("sha256").update(token).digest("base64url"));
    expect(JSON.stringify(stored)).not.toContain(token);

    setClock(at(29, 23));
    expect(await managePage(db, token)).toMatchObject({ status: 200, body: { email: owner.email, closed: null } });
    setClock(at(30, 1));
    expect(await managePage(db, token)).toMatchObject({ status: 404, body: { closed: "renew", rows: [] } });
    // An expired link changes nothing.
    expect(unwrapResult(await manage(db, token, { intent: "stopAll" })).status).toBe(404);
    expect(await db.selectFrom("search_alerts").select("stoppedAt").where("email", "=", owner.email).execute()).toEqual(
      [{ stoppedAt: null }],
    );
    // 'Email me a fresh link': to the address, never to whoever asked; limited per address and network.
    const limiter = createRateLimiter(createMemoryStore());
    expect(unwrapResult(await manage(db, token, { intent: "sendFresh" }, { limiter })).body).toEqual({
      problem: null,
      answer: "freshSent",
    });
    const fresh = manageTokenIn((await mailsTo(db, owner.email)).at(-1)!.text);
    expect((await mailsTo(db, owner.email)).at(-1)!.subject).toBe("[Bodima] A fresh link to your alerts");
    expect(await managePage(db, fresh)).toMatchObject({ status: 200, body: { email: owner.email } });
    await manage(db, token, { intent: "sendFresh" }, { limiter });
    await manage(db, token, { intent: "sendFresh" }, { limiter });
    expect(unwrapResult(await manage(db, token, { intent: "sendFresh" }, { limiter }))).toMatchObject({
      status: 429,
      body: { problem: "tooMany" },
    });
  });

  it("'Sign out of these links' ends every manage link of the address; a later link works", async () => {
    const { db } = ctx();
    const word = uniqueWord();
    const { owner, cookie } = await signedInAccount(db, word);
    const first = await ownManageToken(db, owner.email, cookie, `search=${word}`);
    const second = await ownManageToken(db, owner.email, cookie, `search=${word}&minPrice=1000`);
    const other = await signedInAccount(db, `other-${word}`);
    const othersLink = await ownManageToken(db, other.owner.email, other.cookie, `search=${word}`);

    expect(unwrapResult(await manage(db, second, { intent: "revoke" })).body).toEqual({
      problem: null,
      answer: "revoked",
    });
    for (const token of [first, second]) {
      expect(await managePage(db, token)).toMatchObject({ status: 404, body: { closed: "invalid" } });
      expect(unwrapResult(await manage(db, token, { intent: "stopAll" })).status).toBe(404);
    }
    // The alerts stay on, and another address's link still works.
    expect(await db.selectFrom("search_alerts").select("stoppedAt").where("email", "=", owner.email).execute()).toEqual(
      [{ stoppedAt: null }, { stoppedAt: null }],
    );
    expect((await managePage(db, othersLink)).status).toBe(200);
    const later = await ownManageToken(db, owner.email, cookie, `search=${word}`);
    expect((await managePage(db, later)).body).toMatchObject({ email: owner.email, rows: [{}, {}] });
  });

  it("an old signed manage link (an HMAC of the address) opens nothing and offers a fresh one by email", async () => {
    const { db } = ctx();
    const word = uniqueWord();
    const email = `old-${word}@example.lk`;
    // An alert made before ADR 067: its row keeps the hash of the old signed link.
    const oldToken = createHmac("sha256", SECRET).update(`bodima-alert-manage:${email}`).digest("base64url");
    await db
      .insertInto("search_alerts")
      .values({
        id: `old${word}`.slice(0, 22).padEnd(22, "x"),
        email,
        manageKey: createHash("sha256").update(oldToken).digest("base64url"),
        locale: "en",
        query: `search=${word}`,
        label: `“${word}”`,
        createdAt: at(-40),
        confirmedAt: at(-40),
        seenUpTo: 0,
        lastSentAt: null,
        stoppedAt: null,
      })
      .execute();
    expect(await managePage(db, oldToken)).toMatchObject({
      status: 404,
      body: { closed: "renew", email: null, rows: [] },
    });
    for (const intent of ["stopAll", "revoke"])
      expect(unwrapResult(await manage(db, oldToken, { intent })).status).toBe(404);
    expect(await db.selectFrom("search_alerts").select("stoppedAt").where("email", "=", email).execute()).toEqual([
      { stoppedAt: null },
    ]);
    expect(unwrapResult(await manage(db, oldToken, { intent: "sendFresh" })).body).toMatchObject({
      answer: "freshSent",
    });
    const [mail] = await mailsTo(db, email);
    const fresh = manageTokenIn(mail.text);
    expect(fresh).not.toBe(oldToken);
    expect((await managePage(db, fresh)).body).toMatchObject({ email, rows: [{ label: `“${word}”` }] });
  });

  it("an email asked for by anyone shows only the filters chosen from lists, never the text typed in", async () => {
    const { db } = ctx();
    const word = uniqueWord();
    const victim = `text-${Date.now().toString(36)}-${seq}@example.lk`;
    const typed = "Call 0771234567 or see http://evil.example/win";
    const query = new URLSearchParams({
      search: `${word} ${typed}`,
      location: "WhatsApp +94 77 123 4567",
      university: "University of Moratuwa",
      faculty: "www.evil.example",
      propertyType: "single",
      maxPrice: "25000",
    }).toString();
    expect(((await ask(db, victim, query)) as Response).status).toBe(303);
    const [confirmation] = await mailsTo(db, victim);
    expect(confirmation.kind).toBe("alert-confirm");
    expect(confirmation.text).toContain(
      "University of Moratuwa, Up to LKR 25,000, Single Room, search words (shown on the page the link opens, never in an email)",
    );
    for (const text of [word, "0771234567", "evil.example", "4567", "WhatsApp"]) {
      expect(confirmation.text).not.toContain(text);
      expect(confirmation.subject).not.toContain(text);
    }
    // Our own page, which the address's owner opens, names the whole search.
    const [alert] = await db.selectFrom("search_alerts").select(["id", "label"]).where("email", "=", victim).execute();
    expect(alert.label).toContain(word);

    // 'Already on' and 'you have 10', sent whoever asks, say no more.
    await db
      .updateTable("search_alerts")
      .set({ confirmedAt: at(0) })
      .where("id", "=", alert.id)
      .execute();
    await ask(db, victim, query, { ip: "192.0.2.1" });
    const exists = (await mailsTo(db, victim)).at(-1)!;
    expect(exists.kind).toBe("alert-exists");
    expect(exists.text).not.toContain("evil.example");
    expect(exists.text).not.toContain(word);
  });

  it("a stranger's three requests block an address only from their network; its confirmed owner always gets through", async () => {
    const { db } = ctx();
    const word = uniqueWord();
    const { owner, cookie } = await signedInAccount(db, word);
    const limiter = createRateLimiter(createMemoryStore());
    const status = async (query: string, call: Call) =>
      unwrapResult(await ask(db, owner.email, query, { limiter, ...call })).status;
    for (let i = 0; i < 3; i++)
      expect(await status(`search=${word}&minPrice=${i + 1}`, { ip: "203.0.113.7" })).toBe(303);
    // A 4th from that network (IPv4 /24) is refused...
    expect(await status(`search=${word}&minPrice=9`, { ip: "203.0.113.200" })).toBe(429);
    // ...another network is not blocked by it...
    expect(await status(`search=${word}&minPrice=10`, { ip: "192.0.2.50" })).toBe(303);
    // ...ten from all networks together are the most an address gets in a day...
    for (let i = 0; i < 6; i++)
      expect(await status(`search=${word}&maxPrice=${30000 + i}`, { ip: `198.18.${i}.1` })).toBe(303);
    expect(await status(`search=${word}&maxPrice=39999`, { ip: "198.19.0.1" })).toBe(429);
    // ...and the address's confirmed, signed-in owner is never counted (one of the waiting ten is theirs now).
    const own = (await ask(db, owner.email, `search=${word}&minPrice=1`, {
      cookie,
      limiter,
      ip: "203.0.113.7",
    })) as Response;
    expect(own.headers.get("Location")).toMatch(/^\/alerts\/manage\/[A-Za-z0-9_-]{43}\?done=on$/);
  });
});
