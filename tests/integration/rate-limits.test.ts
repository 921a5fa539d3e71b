import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { t } from "../../app/i18n";
import { clientIpFrom } from "../../app/limits/client-ip.server";
import {
  createMemoryStore,
  createRateLimiter,
  DEFAULT_LIMITS,
  type RateLimiter,
} from "../../app/limits/rate-limit.server";
import { createOwnerAccount } from "../../app/models/account.server";
import { insertListing } from "../../app/models/listing.server";
import {
  trackListingView,
  VIEW_SESSION_COOKIE,
  VIEW_VISITOR_COOKIE,
  viewCountsOf,
} from "../../app/models/view-tracking.server";
import { action as updateViewCount } from "../../app/routes/api.update-view-count";
import { action as contactAction } from "../../app/routes/contact";
import { action as loginAction } from "../../app/routes/login";
import { action as signupAction } from "../../app/routes/signup";
import { signVisitorId } from "../../app/security/visitor-id.server";
import { insertTestOwner, listingInput } from "../factories";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";
import "virtual:catalogue/accounts";
import "virtual:catalogue/info";

type AnyAction = (args: { request: Request; params: Record<string, string>; context: unknown }) => Promise<unknown>;
type Answer = { status: number; body: Record<string, unknown>; headers: Headers };

const PASSWORD = "Secret-pass1";
const BROWSER_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

/** One limiter per test, shared by its requests as the server shares one. */
function site(db: DB) {
  const limiter = createRateLimiter(createMemoryStore());
  return {
    limiter,
    async post(
      action: unknown,
      path: string,
      fields: Record<string, string>,
      clientIp = "198.51.100.1",
    ): Promise<Answer> {
      const request = new Request(`${TEST_SITE}${path}`, {
        method: "POST",
        headers: { origin: TEST_SITE, "user-agent": "vitest" },
        body: new URLSearchParams(fields),
      });
      const result = await (action as AnyAction)({
        request,
        params: {},
        context: testContext({ db, limiter, clientIp }),
      });
      return { ...unwrapResult(result), headers: headersOf(result) };
    },
  };
}

function headersOf(result: unknown): Headers {
  if (result instanceof Response) return result.headers;
  if (result && typeof result === "object" && "init" in result) {
    return new Headers((result as { init: { headers?: HeadersInit } | null }).init?.headers);
  }
  return new Headers();
}

function unique(prefix: string) {
  return `${prefix}-${randomBytes(4).toString("hex")}@example.lk`;
}

async function newAccount(db: DB) {
  return createOwnerAccount(db, {
    name: "Limit Tester",
    email: unique("owner"),
    phone: "0771234567",
    password: PASSWORD,
  });
}

function expectRefused(answer: Answer, message: string) {
  expect(answer.status).toBe(429);
  expect(Number(answer.headers.get("Retry-After"))).toBeGreaterThan(0);
  expect(answer.body.message ?? answer.body.error).toBe(message);
}

const login = (email: string, password: string) => ({ intent: "login", email, password, enhanced: "1" });

async function countRows(db: DB, table: "users" | "contact_messages", column: "email", value: string) {
  const rows = await db.selectFrom(table).select(column).where(column, "=", value).execute();
  return rows.length;
}

async function mailsTo(db: DB, to: string) {
  return (await db.selectFrom("outbox").select("id").where("to", "=", to).execute()).length;
}

describeEachDatabase("rate limits", (ctx) => {
  it("login per account and network: 5 failures, then even the right password is refused with 429 and Retry-After", async () => {
    const { db } = ctx();
    const { post } = site(db);
    const owner = await newAccount(db);
    for (let i = 0; i < DEFAULT_LIMITS.loginAccount.max; i++) {
      expect((await post(loginAction, "/login", login(owner.email, "Wrong-pass1"))).status).toBe(401);
    }
    // Upper case, another address of the same /24: still the same account and network, still locked.
    // (Another network is not locked by these failures: tests/integration/login-throttling.test.ts.)
    const locked = await post(loginAction, "/login", login(owner.email.toUpperCase(), PASSWORD), "198.51.100.99");
    expectRefused(locked, "accounts.errors.auth.too-many-requests");
    expect(t("accounts.errors.auth.too-many-requests")).toBe(
      "Too many failed attempts. Please wait a few minutes before trying again.",
    );
    expect(locked.headers.getSetCookie()).toEqual([]);
    expect(Number(locked.headers.get("Retry-After"))).toBeLessThanOrEqual(15 * 60);

    // Another account from the same IP is not affected.
    const other = await newAccount(db);
    expect((await post(loginAction, "/login", login(other.email, PASSWORD))).body).toMatchObject({ status: "success" });
  });

  it("a suspended account learns it only with the right password (a wrong one reads as any wrong password)", async () => {
    const { db } = ctx();
    const { post } = site(db);
    const owner = await newAccount(db);
    await db.updateTable("users").set({ status: "suspended" }).where("id", "=", owner.id).execute();
    const wrong = await post(loginAction, "/login", login(owner.email, "Wrong-pass1"));
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).not.toBe("accounts.errors.auth.user-disabled");
    const right = await post(loginAction, "/login", login(owner.email, PASSWORD));
    expect(right.body).toMatchObject({ status: "failed", message: "accounts.errors.auth.user-disabled" });
    expect(right.headers.getSetCookie()).toEqual([]);
    expect(await db.selectFrom("sessions").select("id").where("userId", "=", owner.id).execute()).toEqual([]);
  });

  it("login per account: a burst of parallel guesses gets no more than 5 tries", async () => {
    const { db } = ctx();
    const { post } = site(db);
    const owner = await newAccount(db);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(loginAction, "/login", login(owner.email, `Wrong-pass${i}`), `198.51.100.${100 + i}`),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(DEFAULT_LIMITS.loginAccount.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - DEFAULT_LIMITS.loginAccount.max);
  });

  it("login: a success resets the account's failure count", async () => {
    const { db } = ctx();
    const { post } = site(db);
    const owner = await newAccount(db);
    for (let i = 0; i < 4; i++) await post(loginAction, "/login", login(owner.email, "Wrong-pass1"));
    expect((await post(loginAction, "/login", login(owner.email, PASSWORD))).body).toMatchObject({ status: "success" });
    for (let i = 0; i < DEFAULT_LIMITS.loginAccount.max; i++) {
      expect((await post(loginAction, "/login", login(owner.email, "Wrong-pass1"))).status).toBe(401);
    }
    expect((await post(loginAction, "/login", login(owner.email, PASSWORD))).status).toBe(429);
  });

  it("login per IP: 20 failures over many accounts lock that IP out, not another", async () => {
    const { db } = ctx();
    const { post } = site(db);
    for (let i = 0; i < DEFAULT_LIMITS.loginIp.max; i++) {
      expect(
        (await post(loginAction, "/login", login(unique(`guess${i}`), "Wrong-pass1"), "198.51.100.7")).status,
      ).toBe(401);
    }
    const owner = await newAccount(db);
    expectRefused(
      await post(loginAction, "/login", login(owner.email, PASSWORD), "198.51.100.7"),
      "accounts.errors.auth.too-many-requests",
    );
    expect((await post(loginAction, "/login", login(owner.email, PASSWORD), "198.51.100.8")).body).toMatchObject({
      status: "success",
    });
  });

  it("sign-up per IP: 5 accounts an hour; the 6th is refused and not created; another IP still signs up", async () => {
    const { db } = ctx();
    const { post } = site(db);
    const signup = (email: string) => ({
      name: "New Owner",
      email,
      phone: "0771234567",
      password: PASSWORD,
      confirmPassword: PASSWORD,
      terms: "on",
      enhanced: "1",
    });
    // Forms that fail validation never reach account creation and are not counted.
    expect((await post(signupAction, "/signup", { ...signup("bad-address"), terms: "" }, "198.51.100.20")).status).toBe(
      400,
    );
    for (let i = 0; i < DEFAULT_LIMITS.signupIp.max; i++) {
      expect((await post(signupAction, "/signup", signup(unique(`new${i}`)), "198.51.100.20")).body).toMatchObject({
        status: "success",
      });
    }
    const sixth = unique("sixth");
    const refused = await post(signupAction, "/signup", signup(sixth), "198.51.100.20");
    expectRefused(refused, "accounts.limits.signupIp");
    expect(refused.body.kind).toBe("auth");
    expect(await countRows(db, "users", "email", sixth)).toBe(0);

    expect((await post(signupAction, "/signup", signup(sixth), "198.51.100.21")).body).toMatchObject({
      status: "success",
    });
    expect(await countRows(db, "users", "email", sixth)).toBe(1);
  });

  it("reset emails per address: 3 an hour, whether or not the account exists; no mail beyond", async () => {
    const { db } = ctx();
    const { post } = site(db);
    const owner = await newAccount(db);
    const nobody = unique("nobody");
    const forgot = (email: string, clientIp?: string) =>
      post(loginAction, "/login", { intent: "forgot", email }, clientIp);

    for (let i = 0; i < DEFAULT_LIMITS.resetEmail.max; i++) {
      expect((await forgot(i === 1 ? owner.email.toUpperCase() : owner.email, `198.51.100.${30 + i}`)).body).toEqual({
        status: "resetSent",
      });
      expect((await forgot(nobody)).body).toEqual({ status: "resetSent" });
    }
    expect(await mailsTo(db, owner.email)).toBe(3);

    const known = await forgot(owner.email, "203.0.113.50");
    const unknown = await forgot(nobody);
    expectRefused(known, "accounts.limits.resetEmail");
    expectRefused(unknown, "accounts.limits.resetEmail");
    expect(t("accounts.limits.resetEmail")).toMatch(/Too many reset emails for this address/);
    // Same answer either way: the limit does not tell whether an account exists.
    expect({ ...unknown.body, email: "" }).toEqual({ ...known.body, email: "" });
    expect(await mailsTo(db, owner.email)).toBe(3);

    const other = await newAccount(db);
    expect((await forgot(other.email)).body).toEqual({ status: "resetSent" });
    expect(await mailsTo(db, other.email)).toBe(1);
  });

  it("contact per IP: 5 messages an hour; the 6th is neither stored nor emailed; another IP is fine", async () => {
    const { db } = ctx();
    const { post } = site(db);
    const email = unique("writer");
    const message = { name: "Kasun", email, subject: "Other", message: "Hello there." };
    for (let i = 0; i < DEFAULT_LIMITS.contactIp.max; i++) {
      expect((await post(contactAction, "/contact", message, "198.51.100.40")).body).toEqual({ status: "sent" });
    }
    const refused = await post(contactAction, "/contact", message, "198.51.100.40");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.body).toEqual({ status: "limited", values: message });
    expect(t("info.contact.tooMany", { email: "help@example.lk" })).toMatch(/Please wait an hour/);
    expect(await countRows(db, "contact_messages", "email", email)).toBe(5);
    const supportMails = await db.selectFrom("outbox").select("id").where("replyTo", "=", email).execute();
    expect(supportMails).toHaveLength(5);

    expect((await post(contactAction, "/contact", message, "198.51.100.41")).body).toEqual({ status: "sent" });
    expect(await countRows(db, "contact_messages", "email", email)).toBe(6);
  });

  it("X-Forwarded-For only counts with TRUST_PROXY, and then only the entry our proxy added", async () => {
    const { db } = ctx();
    const { post } = site(db);
    const message = (n: number) => ({ name: "Kasun", email: unique(`xff${n}`), subject: "Other", message: "Hi." });
    const send = (n: number, trustProxy: boolean, forwardedFor: string) =>
      post(
        contactAction,
        "/contact",
        message(n),
        clientIpFrom({ socketAddress: "::ffff:10.0.0.2", forwardedFor, trustProxy }),
      );

    // TRUST_PROXY off: a new made-up X-Forwarded-For each time changes nothing; the socket (10.0.0.2) is counted.
    for (let i = 0; i < 5; i++) expect((await send(i, false, `192.0.2.${i}`)).status).toBe(200);
    expect((await send(5, false, "192.0.2.99")).status).toBe(429);

    // TRUST_PROXY on: a client-supplied left-most entry does not help either.
    for (let i = 0; i < 5; i++) expect((await send(10 + i, true, `192.0.2.${i}, 203.0.113.9`)).status).toBe(200);
    expect((await send(15, true, "192.0.2.200, 203.0.113.9")).status).toBe(429);
    // ... while a different real client behind the proxy is counted apart.
    expect((await send(16, true, "203.0.113.10")).status).toBe(200);
  });

  it("views per visitor: beyond the hourly allowance a view is not counted and POST /updateViewCount answers 429", async () => {
    const { db } = ctx();
    const limiter = createRateLimiter(createMemoryStore());
    const owner = await insertTestOwner(db, `views-${randomBytes(3).toString("hex")}`);
    const { id } = await insertListing(db, owner, listingInput({ title: "Room near the campus gate", price: 15000 }));
    // A visitor id this server signed (testContext's secret): unsigned ones count per IP (ADR 017).
    const visitor = signVisitorId("y".repeat(64), randomBytes(16).toString("hex"));
    const ping = (cookies: Record<string, string>, clientIp = "198.51.100.60", adId: number = id) => {
      const cookie = Object.entries(cookies)
        .map(([name, value]) => `${name}=${value}`)
        .join("; ");
      const request = new Request(`${TEST_SITE}/updateViewCount`, {
        method: "POST",
        headers: { "user-agent": BROWSER_UA, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ adId }),
      });
      return updateViewCount({ request, params: {}, context: testContext({ db, limiter, clientIp }) } as never);
    };
    // A new browser session each time (so each view counts), the same visitor cookie.
    const session = () => ({ [VIEW_SESSION_COOKIE]: randomBytes(16).toString("hex"), [VIEW_VISITOR_COOKIE]: visitor });
    const max = DEFAULT_LIMITS.viewVisitor.max;
    for (let i = 0; i < max; i++) expect((await ping(session())).status).toBe(200);

    const refused = await ping(session());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/too many views/i) });
    expect(await viewCountsOf(db, id)).toEqual({ views: max, uniqueViews: 1 });

    // The listing page still gets its counts to show (it renders normally), uncounted.
    const page = new Request(`${TEST_SITE}/listing/x`, {
      headers: { "user-agent": BROWSER_UA, cookie: `${VIEW_VISITOR_COOKIE}=${visitor}` },
    });
    const tracked = await trackListingView(db, page, id, {
      visitorSalt: "s".repeat(32),
      visitorSecret: "y".repeat(64),
      secure: false,
      limit: { limiter, clientIp: "198.51.100.60" },
    });
    expect(tracked).toMatchObject({ views: max, counted: false, refused: { retryAfterSeconds: expect.any(Number) } });

    // Another visitor on the same IP still counts, on another listing: this listing has had
    // as many views from this network as it may count in an hour (ADR 017, per origin per listing).
    const { id: another } = await insertListing(
      db,
      owner,
      listingInput({ title: "Second room near the gate", price: 15000 }),
    );
    const other = await ping(
      { [VIEW_VISITOR_COOKIE]: signVisitorId("y".repeat(64), randomBytes(16).toString("hex")) },
      "198.51.100.60",
      another,
    );
    expect(await other.json()).toMatchObject({ counted: true, totalViews: 1 });
  });

  it("views without cookies are capped per IP, not per made-up visitor", async () => {
    const { db } = ctx();
    const limiter: RateLimiter = createRateLimiter(createMemoryStore(), {
      viewVisitor: { max: 3, windowSeconds: 3600 },
    });
    const owner = await insertTestOwner(db, `views-${randomBytes(3).toString("hex")}`);
    const { id } = await insertListing(db, owner, listingInput({ title: "Annex with a garden", price: 12000 }));
    const fresh = (clientIp: string) =>
      trackListingView(db, new Request(`${TEST_SITE}/listing/x`, { headers: { "user-agent": BROWSER_UA } }), id, {
        visitorSalt: "s".repeat(32),
        visitorSecret: "y".repeat(64),
        secure: false,
        limit: { limiter, clientIp },
      });
    for (let i = 0; i < 3; i++) expect(await fresh("198.51.100.70")).toMatchObject({ counted: true });
    expect(await fresh("198.51.100.70")).toMatchObject({ counted: false, views: 3 });
    // Another network (not just another address of the same /24: ADR 017 caps one listing's views per network).
    expect(await fresh("198.51.101.71")).toMatchObject({ counted: true, views: 4 });
  });
});
