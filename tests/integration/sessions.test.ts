import { expect, it } from "vitest";
import { getAuth } from "../../app/auth/auth.server";
import type { DB } from "../../app/db/db.server";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import { action as settingsAction } from "../../app/routes/dashboard.settings";
import { action as resetAction } from "../../app/routes/reset-password";
import { action as signupAction } from "../../app/routes/signup";
import { requestContext } from "../../app/services.server";
import { signedInAccount, TEST_PASSWORD } from "../owner-fixtures";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";

// ADR 019, at the route actions: the current-password check of
// Change password is a password guess (limited per account), both settings
// actions check the Origin, and a common password is refused wherever one is
// chosen, with the same message.

const COMMON_KEY = "accounts.signup.errors.passwordCommon";

function post(path: string, fields: Record<string, string>, cookie?: string, origin: string | null = TEST_SITE) {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
  if (origin) headers.set("origin", origin);
  if (cookie) headers.set("cookie", cookie);
  return new Request(new URL(path, TEST_SITE), { method: "POST", headers, body: new URLSearchParams(fields) });
}

async function settings(
  db: DB,
  fields: Record<string, string>,
  cookie: string,
  options: { origin?: string | null; limiter?: ReturnType<typeof createRateLimiter> } = {},
) {
  const context = testContext({ db, limiter: options.limiter });
  const result = await settingsAction({
    request: post("/dashboard/settings", fields, cookie, options.origin),
    context,
    params: {},
  } as never).catch((thrown: unknown) => thrown);
  if (result instanceof Response)
    return { status: result.status, body: {} as Record<string, unknown>, headers: result.headers };
  const unwrapped = unwrapResult(result);
  const init = (result as { init?: { headers?: HeadersInit } }).init;
  return { ...unwrapped, headers: new Headers(init?.headers) };
}

const change = (currentPassword: string, password = "Brand-new-pass2") => ({
  intent: "password",
  currentPassword,
  password,
  confirmPassword: password,
});

async function sessionWorks(db: DB, cookie: string) {
  const session = await getAuth(testContext({ db }).get(requestContext)).api.getSession({
    headers: new Headers({ cookie }),
  });
  return !!session;
}

describeEachDatabase("sessions and passwords", (ctx) => {
  it("Change password: 5 tries per account in 15 minutes, then 429 with Retry-After even for the right password", async () => {
    const { db } = ctx();
    const { cookie } = await signedInAccount(db, "guess");
    const limiter = createRateLimiter(createMemoryStore());
    for (let i = 0; i < 5; i++) {
      const wrong = await settings(db, change(`Wrong-pass${i}`), cookie, { limiter });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({
        status: "password-error",
        message: "accounts.settings.password.wrongCurrent",
      });
    }
    const locked = await settings(db, change(TEST_PASSWORD), cookie, { limiter });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ message: "accounts.limits.passwordUser" });
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Nothing changed: the old password still signs in.
    expect(await sessionWorks(db, cookie)).toBe(true);
  });

  it("Change password succeeds with a new session cookie; the old cookies of every device stop working", async () => {
    const { db } = ctx();
    const { owner, cookie } = await signedInAccount(db, "change");
    const other = await getAuth(testContext({ db }).get(requestContext)).api.signInEmail({
      body: { email: owner.email, password: TEST_PASSWORD },
      headers: new Headers({ origin: TEST_SITE }),
      returnHeaders: true,
    });
    const otherCookie = other.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const common = await settings(db, change(TEST_PASSWORD, "Password123"), cookie);
    expect(common).toMatchObject({ status: 400, body: { message: COMMON_KEY, errors: { password: COMMON_KEY } } });

    const done = await settings(db, change(TEST_PASSWORD), cookie);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/dashboard/settings?done=password");
    const fresh = done.headers.getSetCookie().find((c) => c.startsWith("bodima.session_token="));
    expect(fresh).toBeTruthy();
    expect(await sessionWorks(db, fresh!.split(";")[0]!)).toBe(true);
    expect(await sessionWorks(db, otherCookie)).toBe(false);
  });

  it("Sign out of all other devices keeps this session only; both settings actions refuse a missing or foreign Origin", async () => {
    const { db } = ctx();
    const { owner, cookie } = await signedInAccount(db, "devices");
    const other = await getAuth(testContext({ db }).get(requestContext)).api.signInEmail({
      body: { email: owner.email, password: TEST_PASSWORD },
      headers: new Headers({ origin: TEST_SITE }),
      returnHeaders: true,
    });
    const otherCookie = other.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    for (const origin of [null, "https://evil.example"]) {
      expect((await settings(db, { intent: "sessions" }, cookie, { origin })).status).toBe(403);
      expect((await settings(db, change(TEST_PASSWORD), cookie, { origin })).status).toBe(403);
    }
    expect(await sessionWorks(db, otherCookie)).toBe(true);
    const done = await settings(db, { intent: "sessions" }, cookie);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/dashboard/settings?done=sessions");
    expect(await sessionWorks(db, otherCookie)).toBe(false);
    expect(await sessionWorks(db, cookie)).toBe(true);
  });

  it("a common password is refused at sign-up and reset with the same message; the policy's own messages stay first", async () => {
    const { db } = ctx();
    const context = testContext({ db });
    const signup = unwrapResult(
      await signupAction({
        request: post("/signup", {
          name: "Common Choice",
          email: "common@example.lk",
          phone: "0771234567",
          password: "Password123",
          confirmPassword: "Password123",
          terms: "on",
        }),
        context,
        params: {},
      } as never),
    );
    expect(signup).toMatchObject({ status: 400, body: { message: COMMON_KEY, errors: { password: COMMON_KEY } } });
    expect(
      await db.selectFrom("users").select("id").where("email", "=", "common@example.lk").executeTakeFirst(),
    ).toBeUndefined();

    const short = unwrapResult(
      await signupAction({
        request: post("/signup", {
          name: "Common Choice",
          email: "common@example.lk",
          phone: "0771234567",
          password: "abc",
          confirmPassword: "abc",
          terms: "on",
        }),
        context,
        params: {},
      } as never),
    );
    expect(short.body).toMatchObject({ message: "accounts.signup.errors.passwordLength" });

    const reset = unwrapResult(
      await resetAction({
        request: post("/reset-password", {
          token: "abcdefghijklmnop",
          password: "Qwerty123",
          confirmPassword: "Qwerty123",
        }),
        context,
        params: {},
      } as never),
    );
    expect(reset).toMatchObject({ status: 400, body: { message: COMMON_KEY, errors: { password: COMMON_KEY } } });
  });
});
