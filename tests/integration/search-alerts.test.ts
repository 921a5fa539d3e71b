import pino from "pino";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { JOBS } from "../../app/jobs/jobs.server";
import { currentTime, setClock } from "../../app/lib/clock";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import { approveHeldListing } from "../../app/mail/review-mails.server";
import { deliverDueMail } from "../../app/mail/sender.server";
import { createSmtpTransport } from "../../app/mail/transport.server";
import { insertListing } from "../../app/models/listing.server";
import { holdForReview } from "../../app/models/listing-review.server";
import { ALERTS_PER_ADDRESS, requestSearchAlert } from "../../app/models/search-alerts.server";
import * as confirmRoute from "../../app/routes/alerts.confirm.$token";
import * as manageRoute from "../../app/routes/alerts.manage.$token";
import * as newRoute from "../../app/routes/alerts.new";
import * as stopRoute from "../../app/routes/alerts.stop.$token";
import * as unsubscribeRoute from "../../app/routes/alerts.unsubscribe.$token";
import type { HoldSignal } from "../../app/schemas/review-hold";
import { alertToken } from "../../app/security/alert-token.server";
import { isForeignRequest, isLinkSignedWrite } from "../../app/security/origin.server";
import { requestContext } from "../../app/services.server";
import { insertTestOwner, listingInput } from "../factories";
import { signedInAccount } from "../owner-fixtures";
import type { ReceivedMail } from "../parse-mail";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { startTestSmtpServer, type TestSmtpServer } from "../smtp-test-server";
import { alterEnd } from "../tamper";
import { describeEachDatabase } from "../test-db";

// ADR 058: search alerts by email, through their routes as the pages
// post them and through a real SMTP server, on both databases: double opt-in,
// the daily email of new matches only, one-click stop (also RFC 8058's POST),
// the manage page, the limits and every link's reach.

const SECRET = "y".repeat(64); // testContext's sessionSecret
const DAY = 24 * 60 * 60 * 1000;
// Now-ish: a session signed in by better-auth (real time) must not look 30 days old to our clock.
const T0 = new Date();
const at = (days: number, hours = 0) => new Date(T0.getTime() + days * DAY + hours * 60 * 60 * 1000);
const silent = pino({ level: "silent" });
let seq = 0;
const uniqueWord = () => `alertword${Date.now().toString(36)}${++seq}`;

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
});
afterAll(() => smtp.close());
afterEach(() => setClock(undefined));

type Limiter = ReturnType<typeof createRateLimiter>;
type Call = { ip?: string; cookie?: string; origin?: string | null; limiter?: Limiter; locale?: "en" | "si" | "ta" };

function post(path: string, fields: Record<string, string>, call: Call = {}): Request {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (call.origin !== null) headers.Origin = call.origin ?? TEST_SITE;
  if (call.cookie) headers.Cookie = call.cookie;
  return new Request(`${TEST_SITE}${path}`, { method: "POST", headers, body: new URLSearchParams(fields) });
}

// biome-ignore lint/suspicious/noExplicitAny: each route's args differ only in params
type AnyArgs = any;
/** The request's context as the server builds it, in the page's language (`/si/…`, `/ta/…`). */
function context(db: DB, call: Call = {}) {
  const made = testContext({ db, clientIp: call.ip ?? "198.51.100.7", limiter: call.limiter });
  if (call.locale) made.get(requestContext).locale = call.locale;
  return made;
}

/** 'Email me new places like these' as the page posts it. */
async function ask(db: DB, email: string, query: string, call: Call = {}) {
  const request = post("/alerts/new", { email, query, website: "" }, call);
  return newRoute.action({ request, context: context(db, call), params: {} } as AnyArgs);
}

async function confirm(db: DB, token: string, call: Call = {}) {
  const request = post(`/alerts/confirm/${token}`, {}, call);
  return unwrapResult(await confirmRoute.action({ request, context: context(db, call), params: { token } } as AnyArgs));
}

async function openStopLink(db: DB, token: string) {
  const request = new Request(`${TEST_SITE}/alerts/stop/${token}`);
  return unwrapResult(await stopRoute.loader({ request, context: context(db), params: { token } } as AnyArgs));
}

async function manage(db: DB, token: string, fields: Record<string, string>, call: Call = {}) {
  const request = post(`/alerts/manage/${token}`, fields, call);
  return manageRoute.action({ request, context: context(db, call), params: { token } } as AnyArgs);
}

async function manageList(db: DB, token: string) {
  const request = new Request(`${TEST_SITE}/alerts/manage/${token}`);
  return unwrapResult(await manageRoute.loader({ request, context: context(db), params: { token } } as AnyArgs))
    .body as {
    rows: { id: string; label: string; waiting: boolean }[];
  };
}

/** Runs a job as the server does, at `now`, then hands the outbox to the SMTP server. */
async function runJob(db: DB, name: "search-alerts" | "remove-old-alerts", now: Date) {
  setClock(now.toISOString());
  const env = testContext({ db }).get((await import("../../app/services.server")).requestContext).env;
  const transport = createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`, "no-reply@bodima.lk");
  const counts = await JOBS[name].run({
    db,
    env: { ...env, SESSION_SECRET: SECRET },
    storage: undefined as never,
    log: silent,
    mail: () => transport,
    now,
  });
  await deliverDueMail(db, transport, silent, now);
  transport.close();
  return counts;
}

/** Hands what the routes queued to the SMTP server (the clock runs on from where a test set it). */
async function deliver(db: DB) {
  const transport = createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`, "no-reply@bodima.lk");
  await deliverDueMail(db, transport, silent, new Date(currentTime().getTime() + 60_000));
  transport.close();
}

const mailsTo = (email: string): ReceivedMail[] => smtp.received.filter((m) => m.to.includes(email));
const linkIn = (mail: ReceivedMail, kind: "confirm" | "stop" | "manage") => {
  const match = mail.text.match(new RegExp(`${TEST_SITE}/alerts/${kind}/([A-Za-z0-9_.-]+)`));
  if (!match) throw new Error(`no ${kind} link in: ${mail.text}`);
  return match[1];
};

async function postListing(db: DB, title: string, when: Date) {
  setClock(when.toISOString());
  const owner = await insertTestOwner(db, `alert-owner-${++seq}-${Date.now()}`);
  return insertListing(db, owner, listingInput({ title }));
}

/** A signed-in account, another address of the same person, and the clock at the test's start. */
async function signedInAt0(db: DB) {
  const word = uniqueWord();
  const { owner, cookie } = await signedInAccount(db, word);
  setClock(at(0).toISOString());
  return { word, email: `${word}@example.lk`, owner, cookie };
}

describeEachDatabase("search alerts", (ctx) => {
  it("double opt-in: only the confirmation until Confirm, then a daily email of new matches only", async () => {
    const { db } = ctx();
    const word = uniqueWord();
    const email = `${word}@example.lk`;
    const old = await postListing(db, `Old annex ${word}`, at(0));

    setClock(at(0, 1).toISOString());
    const asked = await ask(db, email, `search=${word}&university=University+of+Moratuwa&sort=price_asc`);
    expect(asked).toBeInstanceOf(Response);
    expect((asked as Response).headers.get("Location")).toMatch(/^\/alerts\/new\?.*sent=1$/);
    await deliver(db);
    const [confirmation] = mailsTo(email);
    expect(mailsTo(email)).toHaveLength(1);
    expect(confirmation.subject).toBe("[Bodima] Confirm your alert for new places");
    // The chosen filters only: the words typed in stay on our page (ADR 067).
    expect(confirmation.text).toContain(
      "University of Moratuwa, search words (shown on the page the link opens, never in an email)",
    );
    expect(confirmation.text).not.toContain(`“${word}”`);

    // Unconfirmed: a new match posted, the job runs days later, nothing is sent.
    await postListing(db, `Early room ${word}`, at(0, 2));
    expect(await runJob(db, "search-alerts", at(2))).toEqual({ emailed: 0 });
    expect(mailsTo(email)).toHaveLength(1);

    // Opening the link changes nothing; its button confirms.
    const token = linkIn(confirmation, "confirm");
    expect((await openConfirmLink(db, token)).ask).toMatchObject({ email, already: false });
    expect(await runJob(db, "search-alerts", at(2, 1))).toEqual({ emailed: 0 });
    setClock(at(2, 2).toISOString());
    expect((await confirm(db, token)).body).toMatchObject({ done: true });

    // Ads posted before the confirmation are not new to it.
    expect(await runJob(db, "search-alerts", at(2, 3))).toEqual({ emailed: 0 });
    const fresh = await postListing(db, `Fresh annex ${word}`, at(2, 4));
    await postListing(db, `Other town room ${uniqueWord()}`, at(2, 4)); // not a match
    expect(await runJob(db, "search-alerts", at(2, 5))).toEqual({ emailed: 1 });
    const digest = mailsTo(email).at(-1)!;
    expect(digest.subject).toBe(`[Bodima] 1 new place: “${word}”, University of Moratuwa`);
    expect(digest.text).toContain(`Fresh annex ${word}`);
    expect(digest.text).toContain(`${TEST_SITE}/listing/${fresh.slug}`);
    expect(digest.text).not.toContain(`Old annex ${word}`);
    expect(digest.text).not.toContain(`Early room ${word}`);
    expect(digest.text).not.toContain(old.slug);
    // One-click unsubscribe headers (RFC 2369, RFC 8058): the twin of the stop link in the text.
    const stopToken = linkIn(digest, "stop");
    expect(digest.headers["list-unsubscribe"]).toBe(`<${TEST_SITE}/alerts/unsubscribe/${stopToken}>`);
    expect(digest.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(digest.text).toContain(`${TEST_SITE}/alerts/manage/`);

    // At most one a day: a new match within the day waits for the next email.
    const next = await postListing(db, `Next flat ${word}`, at(2, 6));
    expect(await runJob(db, "search-alerts", at(3))).toEqual({ emailed: 0 });
    expect(await runJob(db, "search-alerts", at(3, 6))).toEqual({ emailed: 1 });
    const second = mailsTo(email).at(-1)!;
    expect(second.text).toContain(`Next flat ${word}`);
    expect(second.text).not.toContain(`Fresh annex ${word}`);
    expect(second.text).toContain(next.slug);
    // Nothing new: no email at all.
    expect(await runJob(db, "search-alerts", at(5))).toEqual({ emailed: 0 });
  });

  it("writes every email in the language the alert was asked in, with links in it", async () => {
    const { db } = ctx();
    const word = uniqueWord();
    const email = `${word}@example.lk`;
    setClock(at(0).toISOString());
    await ask(db, email, `search=${word}&propertyType=single`, { locale: "si" });
    await deliver(db);
    const [confirmation] = mailsTo(email);
    expect(confirmation.subject).toBe("[Bodima] නව ස්ථාන සඳහා ඔබේ දැනුම්දීම තහවුරු කරන්න");
    expect(confirmation.text).toContain(`${TEST_SITE}/si/alerts/confirm/`);
    const token = confirmation.text.match(/\/si\/alerts\/confirm\/([A-Za-z0-9_.-]+)/)![1];
    expect((await confirm(db, token, { locale: "si" })).body).toMatchObject({ done: true });
    await postListing(db, `Room ${word}`, at(0, 1));
    expect(await runJob(db, "search-alerts", at(0, 2))).toEqual({ emailed: 1 });
    const digest = mailsTo(email).at(-1)!;
    expect(digest.subject).toMatch(/^\[Bodima\] නව ස්ථාන 1ක්: /);
    expect(digest.text).toContain(`${TEST_SITE}/si/alerts/stop/`);
    expect(digest.headers["list-unsubscribe"]).toContain(`${TEST_SITE}/si/alerts/unsubscribe/`);
  });

  it("emails a place held for review once a moderator approves it, though newer places were sent first", async () => {
    const { db } = ctx();
    const word = uniqueWord();
    const email = `${word}@example.lk`;
    setClock(at(0).toISOString());
    await ask(db, email, `search=${word}`);
    await deliver(db);
    expect((await confirm(db, linkIn(mailsTo(email)[0], "confirm"))).body).toMatchObject({ done: true });

    // Posted and held (a copied photo, ADR 082): not public, so not in the first email…
    const held = await postListing(db, `Held annex ${word}`, at(0, 1));
    const signal: HoldSignal = { kind: "scam", id: "advance-before-viewing", weight: 3, evidence: ["advance"] };
    expect(await holdForReview(db, held.id, [signal], at(0, 1))).toBe("held");
    const later = await postListing(db, `Later room ${word}`, at(0, 2));
    expect(await runJob(db, "search-alerts", at(0, 3))).toEqual({ emailed: 1 });
    const first = mailsTo(email).at(-1)!;
    expect(first.text).toContain(later.slug);
    expect(first.text).not.toContain(held.slug);

    // …approved a day later: the next email has it, though the first looked past its number.
    const moderator = { id: "mod-alerts", email: "mod-alerts@example.com" };
    const site = { supportEmail: "support@example.lk", siteName: "Bodima", siteUrl: TEST_SITE };
    expect(await approveHeldListing(db, site, moderator, held.id, null, at(1, 1))).toEqual({ ok: true });
    expect(await runJob(db, "search-alerts", at(1, 4))).toEqual({ emailed: 1 });
    const second = mailsTo(email).at(-1)!;
    expect(second.subject).toBe(`[Bodima] 1 new place: “${word}”`);
    expect(second.text).toContain(`Held annex ${word}`);
    expect(second.text).toContain(`${TEST_SITE}/listing/${held.slug}`);
    expect(second.text).not.toContain(later.slug);
    // Once only.
    expect(await runJob(db, "search-alerts", at(3))).toEqual({ emailed: 0 });
  });

  it("stops in one click from the link, and by the List-Unsubscribe-Post header from a mail service", async () => {
    const { db } = ctx();
    const { word, email, owner, cookie } = await signedInAt0(db);
    // A signed-in user's own address needs no confirmation: the alert is on at once.
    const mine = (await ask(db, owner.email, `search=${word}`, { cookie })) as Response;
    expect(mine.headers.get("Location")).toMatch(/^\/alerts\/manage\/[A-Za-z0-9_-]{43}\?done=on$/);
    const manageToken = mine.headers.get("Location")!.split("/")[3].split("?")[0];
    expect((await manageList(db, manageToken)).rows).toMatchObject([{ waiting: false }]);
    await deliver(db);
    expect(mailsTo(owner.email)).toHaveLength(0);

    await postListing(db, `Hostel ${word}`, at(0, 1));
    expect(await runJob(db, "search-alerts", at(0, 2))).toEqual({ emailed: 1 });
    const digest = mailsTo(owner.email).at(-1)!;
    const unsubscribeUrl = digest.headers["list-unsubscribe"].slice(1, -1);
    const token = unsubscribeUrl.split("/").at(-1)!;
    expect(unsubscribeUrl).toBe(`${TEST_SITE}/alerts/unsubscribe/${token}`);
    expect(linkIn(digest, "stop")).toBe(token);

    // The mail service posts from its servers: no cookie, a foreign Origin at most.
    const path = new URL(unsubscribeUrl).pathname;
    expect(isLinkSignedWrite(path)).toBe(true);
    const oneClick = post(path, { "List-Unsubscribe": "One-Click" }, { origin: "https://mail.example.com" });
    const stopped = (await unsubscribeRoute.action({
      request: oneClick,
      context: context(db),
      params: { token },
    } as AnyArgs)) as Response;
    expect(stopped.status).toBe(200);
    expect(await stopped.text()).toBe("Alert stopped.\n");
    const stoppedId = token.split(".")[0];
    // An older mail client's GET goes to the stop page (which stops it and offers Undo).
    const viaGet = (await unsubscribeRoute.loader({
      request: new Request(`${TEST_SITE}${path}`),
      context: context(db),
      params: { token },
    } as AnyArgs)) as Response;
    expect(viaGet.headers.get("Location")).toBe(`/alerts/stop/${token}`);
    await postListing(db, `Annex ${word}`, at(1, 3));
    expect(await runJob(db, "search-alerts", at(1, 4))).toEqual({ emailed: 0 });
    expect((await manageList(db, manageToken)).rows).toEqual([]);

    // Undo from the stop page (posted to the manage page) turns it back on.
    const undo = (await manage(db, manageToken, { intent: "restart", alert: stoppedId })) as Response;
    expect(undo.headers.get("Location")).toMatch(/done=restarted$/);
    expect(await runJob(db, "search-alerts", at(1, 5))).toEqual({ emailed: 1 });

    // The link in the email's text stops it in one click too (no button).
    expect(await openStopLink(db, token)).toMatchObject({ status: 200, body: { state: "stopped" } });
    await postListing(db, `Flat ${word}`, at(3));
    expect(await runJob(db, "search-alerts", at(3, 1))).toEqual({ emailed: 0 });

    // Another address's alert stays on.
    setClock(at(3, 2).toISOString());
    await ask(db, email, `search=${word}`, { cookie });
    await deliver(db);
    expect((await confirm(db, linkIn(mailsTo(email)[0], "confirm"))).body).toMatchObject({ done: true });
    await postListing(db, `Room ${word}`, at(3, 3));
    expect(await runJob(db, "search-alerts", at(3, 4))).toEqual({ emailed: 1 });
  });

  it("links reach only their own alert and purpose; made-up links change nothing", async () => {
    const { db } = ctx();
    const word = uniqueWord();
    const [a, b] = [`a-${word}@example.lk`, `b-${word}@example.lk`];
    setClock(at(0).toISOString());
    await ask(db, a, `search=${word}`);
    await ask(db, b, `search=${word}`);
    await deliver(db);
    const tokenA = linkIn(mailsTo(a)[0], "confirm");
    const tokenB = linkIn(mailsTo(b)[0], "confirm");
    const [idA] = tokenA.split(".");
    const [idB] = tokenB.split(".");

    // B's signature on A's id, a stop link used to confirm, an altered signature: all refused.
    expect((await confirm(db, `${idA}.${tokenB.split(".")[1]}`)).status).toBe(404);
    expect((await confirm(db, alertToken(SECRET, "stop", idA))).status).toBe(404);
    expect((await confirm(db, alterEnd(tokenA))).status).toBe(404);
    expect((await openStopLink(db, alertToken(SECRET, "confirm", idB))).status).toBe(404);
    expect((await openStopLink(db, alertToken("z".repeat(64), "stop", idB))).status).toBe(404);
    expect((await confirm(db, tokenA)).status).toBe(200);

    // A's manage link cannot stop or restart B's alert.
    const manageA = await confirmPageManage(db, tokenA);
    expect(unwrapResult(await manage(db, manageA, { intent: "stop", alert: idB })).status).toBe(404);
    const restart = (await manage(db, manageA, { intent: "restart", alert: idB })) as Response;
    expect(restart.headers.get("Location")).toMatch(/done=cannotRestart$/);
    // B's alert is untouched: still waiting, and its own link confirms it.
    expect((await confirm(db, tokenB)).body).toMatchObject({ done: true });
    // A made-up manage link shows no one's alerts.
    expect((await manageList(db, "A".repeat(43))).rows).toEqual([]);
    // From another site's page, nothing changes.
    const foreign = unwrapResult(await manage(db, manageA, { intent: "stopAll" }, { origin: "https://evil.example" }));
    expect(foreign.status).toBe(403);
    expect((await manageList(db, manageA)).rows).toHaveLength(1);
    expect(isForeignRequest("POST", { origin: "https://evil.example" }, [TEST_SITE])).toBe(true);
    expect(isLinkSignedWrite(`/alerts/manage/${manageA}`)).toBe(false);
    expect(isLinkSignedWrite(`/alerts/stop/${tokenA}`)).toBe(false);
    // The List-Unsubscribe URL with a confirm link's signature stops nothing.
    const wrongPurpose = (await unsubscribeRoute.action({
      request: post(`/alerts/unsubscribe/${tokenB}`, { "List-Unsubscribe": "One-Click" }, { origin: null }),
      context: context(db),
      params: { token: tokenB },
    } as AnyArgs)) as Response;
    expect(wrongPurpose.status).toBe(404);
  });

  it(`never goes past ${ALERTS_PER_ADDRESS} alerts an address when requests arrive at once`, async () => {
    const { db } = ctx();
    const email = `${uniqueWord()}@example.lk`;
    // A signed-in user's own address (no confirmation email, so no rate limit in the way), 15 searches at once.
    const outcomes = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        requestSearchAlert(db, {
          email,
          locale: "en",
          query: `search=room&minPrice=${i + 1}`,
          label: `room ${i}`,
          confirmed: true,
        }),
      ),
    );
    expect(outcomes.filter((o) => o.outcome === "created")).toHaveLength(ALERTS_PER_ADDRESS);
    expect(outcomes.filter((o) => o.outcome === "full")).toHaveLength(15 - ALERTS_PER_ADDRESS);
    const rows = await db.selectFrom("search_alerts").select("id").where("email", "=", email).execute();
    expect(rows).toHaveLength(ALERTS_PER_ADDRESS);
  });

  it("limits: 10 alerts an address, confirmation emails per address and per network", async () => {
    const { db } = ctx();
    const { word, email, owner, cookie } = await signedInAt0(db);
    for (let i = 0; i < ALERTS_PER_ADDRESS; i++)
      expect(((await ask(db, owner.email, `search=${word}&minPrice=${i + 1}`, { cookie })) as Response).status).toBe(
        303,
      );
    const full = unwrapResult(await ask(db, owner.email, `search=${word}&minPrice=99`, { cookie }));
    expect(full.status).toBe(409);
    expect((full.body.problem as { form: string }).form).toBe(
      "You already have 10 alerts. Stop one you no longer need, then try again.",
    );

    // Someone else asking for that address: the page says the same as always, the email says why.
    const stranger = await ask(db, owner.email, `search=${word}&minPrice=100`);
    expect((stranger as Response).headers.get("Location")).toMatch(/sent=1$/);
    await deliver(db);
    expect(mailsTo(owner.email).at(-1)!.subject).toBe("[Bodima] You already have 10 alerts");

    // Three emails an address a day from one network (IPv4 /24), whoever asks (ADR 067).
    const shared = createRateLimiter(createMemoryStore());
    for (let i = 0; i < 3; i++)
      await ask(db, email, `search=${word}&maxPrice=${20000 + i}`, { ip: `203.0.113.${i + 1}`, limiter: shared });
    const fourth = unwrapResult(
      await ask(db, email, `search=${word}&maxPrice=30000`, { ip: "203.0.113.99", limiter: shared }),
    );
    expect(fourth.status).toBe(429);
    expect((fourth.body.problem as { form: string }).form).toBe(
      "Too many alert requests for this address or from your network. Please try again later.",
    );
    expect(await db.selectFrom("search_alerts").select("id").where("email", "=", email).execute()).toHaveLength(3);

    // Ten requests an hour from one network, whatever the addresses.
    const limiter = createRateLimiter(createMemoryStore());
    for (let i = 0; i < 10; i++) await ask(db, `n${i}-${email}`, `search=${word}`, { ip: `198.51.100.${i}`, limiter });
    expect(
      unwrapResult(await ask(db, `n10-${email}`, `search=${word}`, { ip: "198.51.100.200", limiter })).status,
    ).toBe(429);
  });

  it("refuses a confirmation link more than 7 days old even before the clean-up has run", async () => {
    const { db } = ctx();
    const { email, token } = await askedAtDayZero(db);
    setClock(at(7, 1).toISOString());
    const opened = await confirmLinkPage(db, token);
    expect(opened.status).toBe(404);
    expect(opened.body.problem).toBe("gone");
    expect((await confirm(db, token)).status).toBe(404);
    const [row] = await db.selectFrom("search_alerts").select("confirmedAt").where("email", "=", email).execute();
    expect(row.confirmedAt).toBeNull();
  });

  it("asked again after its link expired (before the clean-up), an alert starts afresh with a link that works", async () => {
    const { db } = ctx();
    const { word, email } = await askedAtDayZero(db);
    setClock(at(7, 1).toISOString());
    await ask(db, email, `search=${word}`);
    await deliver(db);
    const mails = mailsTo(email);
    expect(mails).toHaveLength(2);
    const fresh = linkIn(mails[1], "confirm");
    expect((await confirm(db, fresh)).status).toBe(200);
    const rows = await db.selectFrom("search_alerts").select("confirmedAt").where("email", "=", email).execute();
    expect(rows).toEqual([{ confirmedAt: expect.any(String) }]);
  });

  it("deletes unconfirmed alerts after 7 days, with their link; bad input gets a clear answer", async () => {
    const { db } = ctx();
    const { word, email, token } = await askedAtDayZero(db);
    const rows = () => db.selectFrom("search_alerts").select("id").where("email", "=", email).execute();
    await runJob(db, "remove-old-alerts", at(6, 23));
    expect(await rows()).toHaveLength(1);
    expect(await runJob(db, "remove-old-alerts", at(7, 1))).toMatchObject({ unconfirmed: expect.any(Number) });
    expect(await rows()).toEqual([]);
    expect((await confirm(db, token)).status).toBe(404);

    const invalid = unwrapResult(await ask(db, "not-an-address", `search=${word}`));
    expect(invalid.status).toBe(400);
    expect(invalid.body.problem).toEqual({ email: "Enter an email address like name@example.com." });
    expect(unwrapResult(await ask(db, email, `search=${word}`, { origin: "https://evil.example" })).status).toBe(403);
    // A bot filling the hidden field is shown the usual page; nothing is stored or sent.
    const bot = post("/alerts/new", { email: `bot-${email}`, query: "", website: "http://spam" });
    expect(
      ((await newRoute.action({ request: bot, context: context(db), params: {} } as AnyArgs)) as Response).status,
    ).toBe(303);
    expect(await db.selectFrom("search_alerts").select("id").where("email", "=", `bot-${email}`).execute()).toEqual([]);
  });
});

/** An alert asked for a new word and address on day 0, and its confirmation link. */
async function askedAtDayZero(db: DB) {
  const word = uniqueWord();
  const email = `${word}@example.lk`;
  setClock(at(0).toISOString());
  await ask(db, email, `search=${word}`);
  await deliver(db);
  return { word, email, token: linkIn(mailsTo(email)[0], "confirm") };
}

/** The confirmation link's page as the loader answers it (opening it changes nothing). */
async function confirmLinkPage(db: DB, token: string) {
  const request = new Request(`${TEST_SITE}/alerts/confirm/${token}`);
  return unwrapResult(await confirmRoute.loader({ request, context: context(db), params: { token } } as AnyArgs));
}

/** What the confirmation link's page shows. */
async function openConfirmLink(db: DB, token: string) {
  return (await confirmLinkPage(db, token)).body as {
    ask: { email: string; already: boolean } | null;
  };
}

/**
 * The manage link the confirm page offers after its button was pressed: made
 * fresh by the button's answer, never by opening the page (ADR 067).
 */
async function confirmPageManage(db: DB, token: string): Promise<string> {
  return ((await confirm(db, token)).body.manageHref as string).split("/").at(-1)!;
}
