import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import * as confirmRoute from "../../app/routes/confirm-email";
import * as dashboardRoute from "../../app/routes/dashboard";
import * as resendRoute from "../../app/routes/dashboard.confirm-email";
import * as newListingRoute from "../../app/routes/dashboard.listings.new";
import * as signupRoute from "../../app/routes/signup";
import { requestContext } from "../../app/services.server";
import { LISTING_FORM, TEST_PASSWORD } from "../owner-fixtures";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { alterEnd } from "../tamper";
import { describeEachDatabase } from "../test-db";

// ADR 066: an address typed in at sign-up is a stranger's until its emailed
// link is opened and its button pressed. Through the routes as the pages post
// them, on both databases: the email (outbox, the account's language), the
// dashboard banner, posting refused until then, 'Send the link again' limited,
// and the confirmation itself.

// biome-ignore lint/suspicious/noExplicitAny: each route's args differ only in params
type AnyArgs = any;
type Limiter = ReturnType<typeof createRateLimiter>;

function context(db: DB, options: { locale?: "en" | "si" | "ta"; limiter?: Limiter } = {}) {
  const made = testContext({ db, limiter: options.limiter });
  if (options.locale) made.get(requestContext).locale = options.locale;
  return made;
}

function post(path: string, fields: Record<string, string>, options: { cookie?: string; origin?: string } = {}) {
  const headers = new Headers({
    "Content-Type": "application/x-www-form-urlencoded",
    Origin: options.origin ?? TEST_SITE,
  });
  if (options.cookie) headers.set("Cookie", options.cookie);
  return new Request(`${TEST_SITE}${path}`, { method: "POST", headers, body: new URLSearchParams(fields) });
}

const get = (path: string, cookie?: string) =>
  new Request(`${TEST_SITE}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

/** Signs up through the form, as a browser without JavaScript posts it; returns the session cookie. */
async function signUp(db: DB, email: string, locale: "en" | "si" | "ta" = "en") {
  const request = post("/signup", {
    name: "Nimali Perera",
    email,
    phone: "0771234567",
    password: TEST_PASSWORD,
    confirmPassword: TEST_PASSWORD,
    terms: "on",
  });
  const answer = (await signupRoute.action({
    request,
    context: context(db, { locale }),
    params: {},
  } as AnyArgs)) as Response;
  expect(answer.status).toBe(302);
  return answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

const confirmationMails = (db: DB, email: string) =>
  db
    .selectFrom("outbox")
    .select(["subject", "text", "html"])
    .where("to", "=", email)
    .where("kind", "=", "confirm-email")
    .orderBy("createdAt")
    .execute();

const tokenIn = (text: string, prefix = "") => {
  const match = new RegExp(`${TEST_SITE}${prefix}/confirm-email\\?token=([\\w.-]+)`).exec(text);
  if (!match) throw new Error(`no confirmation link in: ${text}`);
  return match[1];
};

const userRow = (db: DB, email: string) =>
  db
    .selectFrom("users")
    .select(["emailVerified", "emailConfirmedAt"])
    .where("email", "=", email)
    .executeTakeFirstOrThrow();

async function dashboard(db: DB, cookie: string, query = "") {
  const request = get(`/dashboard${query}`, cookie);
  return (await dashboardRoute.loader({ request, context: context(db), params: {} } as AnyArgs)) as {
    confirmEmail: { email: string; notice: string | null } | null;
  };
}

async function resend(db: DB, cookie: string, limiter: Limiter, back = "/dashboard") {
  const request = post("/dashboard/confirm-email", { back }, { cookie });
  const answer = (await resendRoute.action({
    request,
    context: context(db, { limiter }),
    params: {},
  } as AnyArgs)) as Response;
  return answer.headers.get("Location");
}

async function pressConfirm(db: DB, token: string, origin = TEST_SITE) {
  const request = post("/confirm-email", { token }, { origin });
  return unwrapResult(await confirmRoute.action({ request, context: context(db), params: {} } as AnyArgs));
}

async function postListing(db: DB, cookie: string) {
  const request = post("/dashboard/listings/new", { ...LISTING_FORM }, { cookie });
  return unwrapResult(await newListingRoute.action({ request, context: context(db), params: {} } as AnyArgs));
}

let seq = 0;
const newAddress = () => `confirm-${Date.now().toString(36)}-${++seq}@example.lk`;

describeEachDatabase("address confirmation at sign-up", (ctx) => {
  it("emails a link in the account's language; until its button is pressed the account may not post", async () => {
    const { db } = ctx();
    const email = newAddress();
    const cookie = await signUp(db, email, "si");

    const [mail] = await confirmationMails(db, email);
    expect(mail.subject).toBe("Bodima සඳහා ඔබේ ඊමේල් ලිපිනය තහවුරු කරන්න");
    expect(mail.text).toContain("ආයුබෝවන් Nimali Perera,");
    const token = tokenIn(mail.text, "/si");
    expect(mail.html).toContain(`/si/confirm-email?token=${token}`);
    expect(await userRow(db, email)).toMatchObject({ emailVerified: 0, emailConfirmedAt: null });

    // The dashboard says so on every page, with 'Send the link again'.
    expect((await dashboard(db, cookie)).confirmEmail).toEqual({ email, notice: null });
    // Posting is refused by the server, whatever the page showed.
    const refused = await postListing(db, cookie);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ first: { key: "listingForm.errors.confirmFirst" }, confirmFirst: true });
    expect(await db.selectFrom("listings").select("id").where("userEmail", "=", email).execute()).toEqual([]);
    const newListing = (await newListingRoute.loader({
      request: get("/dashboard/listings/new", cookie),
      context: context(db),
      params: {},
    } as AnyArgs)) as { confirmEmail: unknown };
    expect(newListing.confirmEmail).toEqual({ email, notice: null });

    // Opening the link changes nothing (mail scanners open links); a page of another site cannot press it.
    const opened = confirmRoute.loader({
      request: get(`/si/confirm-email?token=${token}`),
      context: context(db),
      params: {},
    } as AnyArgs);
    expect(opened.token).toBe(token);
    expect((await pressConfirm(db, token, "https://evil.example")).status).toBe(403);
    expect(await userRow(db, email)).toMatchObject({ emailVerified: 0, emailConfirmedAt: null });

    // Its button confirms: better-auth's flag and our dated record.
    expect(await pressConfirm(db, token)).toEqual({ status: 200, body: { outcome: "done" } });
    const row = await userRow(db, email);
    expect(Number(row.emailVerified)).toBe(1);
    expect(row.emailConfirmedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await dashboard(db, cookie)).confirmEmail).toBeNull();
    // Past the gate: the form's own checks answer now (no photo was sent).
    const posted = await postListing(db, cookie);
    expect(posted.body).not.toMatchObject({ confirmFirst: true });
  });

  it("sends the link again at most 3 times an hour; made-up links confirm nothing", async () => {
    const { db } = ctx();
    const email = newAddress();
    const cookie = await signUp(db, email);
    const limiter = createRateLimiter(createMemoryStore());
    for (let i = 0; i < 3; i++) expect(await resend(db, cookie, limiter)).toBe("/dashboard?confirmEmail=sent");
    expect(await resend(db, cookie, limiter, "/dashboard/listings/new")).toBe(
      "/dashboard/listings/new?confirmEmail=limited",
    );
    // An unknown page to go back to is the dashboard.
    expect(await resend(db, cookie, limiter, "https://evil.example/")).toBe("/dashboard?confirmEmail=limited");
    const mails = await confirmationMails(db, email);
    expect(mails).toHaveLength(4);
    expect((await dashboard(db, cookie, "?confirmEmail=limited")).confirmEmail).toEqual({ email, notice: "limited" });

    // A token signed with another secret, or altered, or no token at all.
    const token = tokenIn(mails[3].text);
    const [head, body, signature] = token.split(".");
    expect((await pressConfirm(db, `${head}.${body}.${alterEnd(signature)}`)).body).toEqual({
      outcome: "invalid",
    });
    expect((await pressConfirm(db, "not-a-token")).body).toEqual({ outcome: "invalid" });
    expect(await userRow(db, email)).toMatchObject({ emailVerified: 0 });
    // Any of the links works (the first one too); a confirmed account asks for none again.
    expect((await pressConfirm(db, tokenIn(mails[0].text))).body).toEqual({ outcome: "done" });
    expect(await resend(db, cookie, createRateLimiter(createMemoryStore()))).toBe("/dashboard");
    expect(await confirmationMails(db, email)).toHaveLength(4);
  });
});
