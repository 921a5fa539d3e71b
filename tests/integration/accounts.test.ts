import pino from "pino";
import { RouterContextProvider } from "react-router";
import { expect, it } from "vitest";
import { cookieHeaders, createAuth, getAuth, RESET_TOKEN_SECONDS } from "../../app/auth/auth.server";
import type { DB } from "../../app/db/db.server";
import { parseEnv } from "../../app/env.server";
import { createOwnerAccount, updateProfile } from "../../app/models/account.server";
import { countOwnerListings } from "../../app/models/owner-listings.server";
import { action as settingsAction } from "../../app/routes/dashboard.settings";
import { action as resetPasswordAction } from "../../app/routes/reset-password";
import { type RequestInfo, requestContext } from "../../app/services.server";
import { describeEachDatabase } from "../test-db";

const SITE = "http://127.0.0.1:3999";

function authFor(db: DB) {
  return createAuth({ db, siteUrl: SITE, siteName: "Bodima", secret: "x".repeat(64) });
}

function browserHeaders(cookie?: string) {
  const headers = new Headers({ origin: SITE, "user-agent": "vitest" });
  if (cookie) headers.set("cookie", cookie);
  return headers;
}

/** "name=value" pairs from Set-Cookie headers, as a browser would send them back. */
function cookieJar(headers: Headers): string {
  return cookieHeaders(headers)
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

function argonParams(hash: string) {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash);
  return m ? { m: Number(m[1]), t: Number(m[2]) } : null;
}

describeEachDatabase("accounts", (ctx) => {
  it("signs up: a users row with phone and an Argon2id credential at OWASP's parameters", async () => {
    const { db } = ctx();
    const auth = authFor(db);
    const { headers, response } = await auth.api.signUpEmail({
      body: { name: "Nimali Perera", email: "nimali@example.lk", password: "Secret-pass1", phone: "0771234567" },
      headers: browserHeaders(),
      returnHeaders: true,
    });
    expect(response.user.email).toBe("nimali@example.lk");
    expect(headers.getSetCookie().some((c) => c.startsWith("bodima.session_token="))).toBe(true);

    const user = await db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", "nimali@example.lk")
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: "Nimali Perera", phone: "0771234567", role: "owner", status: "active" });
    expect(Number(user.emailVerified)).toBe(0);
    expect(user.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);

    const account = await db.selectFrom("accounts").selectAll().where("userId", "=", user.id).executeTakeFirstOrThrow();
    expect(account.providerId).toBe("credential");
    const params = argonParams(account.password ?? "");
    expect(params).not.toBeNull();
    expect(params!.m).toBeGreaterThanOrEqual(19456);
    expect(params!.t).toBeGreaterThanOrEqual(2);

    const session = await db.selectFrom("sessions").selectAll().where("userId", "=", user.id).executeTakeFirstOrThrow();
    expect(session.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    const current = await auth.api.getSession({ headers: browserHeaders(cookieJar(headers)) });
    expect(current?.user.name).toBe("Nimali Perera");
  });

  it("refuses a second sign-up with the same email", async () => {
    const { db } = ctx();
    const auth = authFor(db);
    const body = { name: "Kamal", email: "twice@example.lk", password: "Secret-pass1", phone: "0771234567" };
    await auth.api.signUpEmail({ body, headers: browserHeaders() });
    await expect(auth.api.signUpEmail({ body, headers: browserHeaders() })).rejects.toMatchObject({
      body: { code: expect.stringMatching(/USER_ALREADY_EXISTS/) },
    });
  });

  it("signs in an account made by createOwnerAccount (the demo owners), and signs out", async () => {
    const { db } = ctx();
    const auth = authFor(db);
    await createOwnerAccount(db, {
      name: "Demo Owner",
      email: "Owner9@Demo.lk",
      phone: "0711111111",
      password: "Bodima-demo-2026",
    });
    await expect(
      auth.api.signInEmail({ body: { email: "owner9@demo.lk", password: "wrong-Pass1" }, headers: browserHeaders() }),
    ).rejects.toMatchObject({ body: { code: "INVALID_EMAIL_OR_PASSWORD" } });

    const { headers, response } = await auth.api.signInEmail({
      body: { email: "owner9@demo.lk", password: "Bodima-demo-2026", rememberMe: true },
      headers: browserHeaders(),
      returnHeaders: true,
    });
    expect(response.user.name).toBe("Demo Owner");
    const cookie = cookieJar(headers);
    expect((await auth.api.getSession({ headers: browserHeaders(cookie) }))?.user.email).toBe("owner9@demo.lk");

    await auth.api.signOut({ headers: browserHeaders(cookie) });
    expect(await auth.api.getSession({ headers: browserHeaders(cookie) })).toBeNull();
  });

  it("updates only the user's own name and phone", async () => {
    const { db } = ctx();
    const a = await createOwnerAccount(db, {
      name: "A",
      email: "a@profile.lk",
      phone: "0700000001",
      password: "Secret-pass1",
    });
    const b = await createOwnerAccount(db, {
      name: "B",
      email: "b@profile.lk",
      phone: "0700000002",
      password: "Secret-pass1",
    });
    expect(await updateProfile(db, a.id, { name: "A Changed", phone: "" })).toEqual({ ok: true });
    const rows = await db
      .selectFrom("users")
      .select(["id", "name", "email", "phone"])
      .where("id", "in", [a.id, b.id])
      .execute();
    expect(rows.find((r) => r.id === a.id)).toMatchObject({ name: "A Changed", email: "a@profile.lk", phone: "" });
    expect(rows.find((r) => r.id === b.id)).toMatchObject({ name: "B", phone: "0700000002" });
    expect(await countOwnerListings(db, a.id)).toBe(0);
    // The preferred language changes only when one is given (ADR 069).
    expect(await updateProfile(db, a.id, { name: "A Changed", phone: "", locale: "si" })).toEqual({ ok: true });
    expect(await updateProfile(db, a.id, { name: "A Again", phone: "" })).toEqual({ ok: true });
    const [mine] = await db.selectFrom("users").select(["name", "locale"]).where("id", "=", a.id).execute();
    expect(mine).toEqual({ name: "A Again", locale: "si" });
  });

  it("password reset: one mail with a link valid for an hour, single use, other sessions ended", async () => {
    const { db } = ctx();
    const auth = authFor(db);
    const owner = await createOwnerAccount(db, {
      name: "R",
      email: "reset@example.lk",
      phone: "0700000003",
      password: "Old-pass123",
    });
    const { headers } = await auth.api.signInEmail({
      body: { email: "reset@example.lk", password: "Old-pass123" },
      headers: browserHeaders(),
      returnHeaders: true,
    });
    const oldCookie = cookieJar(headers);

    await auth.api.requestPasswordReset({ body: { email: "nobody@example.lk" }, headers: browserHeaders() });
    await auth.api.requestPasswordReset({ body: { email: "reset@example.lk" }, headers: browserHeaders() });
    const mails = await db.selectFrom("outbox").selectAll().where("kind", "=", "password-reset").execute();
    const mail = mails.find((m) => m.to === "reset@example.lk");
    expect(mails.filter((m) => m.to === "nobody@example.lk")).toHaveLength(0);
    const token = new URL(/http\S+/.exec(mail!.text)![0]).searchParams.get("token")!;
    expect(mail!.text).toContain(`${SITE}/reset-password?token=`);

    // The row is found by its user: the token itself is stored only as a hash (below).
    const verification = await db
      .selectFrom("verifications")
      .selectAll()
      .where("value", "=", owner.id)
      .executeTakeFirstOrThrow();
    const lifetime = (Date.parse(verification.expiresAt) - Date.now()) / 1000;
    expect(lifetime).toBeGreaterThan(RESET_TOKEN_SECONDS - 60);
    expect(lifetime).toBeLessThanOrEqual(RESET_TOKEN_SECONDS);

    await auth.api.resetPassword({ body: { token, newPassword: "New-pass123" }, headers: browserHeaders() });
    await expect(
      auth.api.resetPassword({ body: { token, newPassword: "Other-pass123" }, headers: browserHeaders() }),
    ).rejects.toMatchObject({ body: { code: "INVALID_TOKEN" } });
    expect(await auth.api.getSession({ headers: browserHeaders(oldCookie) })).toBeNull();
    const signedIn = await auth.api.signInEmail({
      body: { email: "reset@example.lk", password: "New-pass123" },
      headers: browserHeaders(),
    });
    expect(signedIn.user.id).toBe(owner.id);
  });
});

describeEachDatabase("accounts routes", (ctx) => {
  function contextFor(db: DB) {
    const context = new RouterContextProvider();
    context.set(requestContext, {
      db,
      env: parseEnv({ SITE_URL: SITE }),
      secrets: { sessionSecret: "y".repeat(64), visitorSalt: "s" },
      logger: pino({ level: "silent" }),
      log: pino({ level: "silent" }),
      requestId: "test",
      clientIp: "127.0.0.1",
    } as unknown as RequestInfo);
    return context;
  }

  it("sign-up cannot choose its role or status", async () => {
    const { db } = ctx();
    const auth = authFor(db);
    await auth.api.signUpEmail({
      body: {
        name: "Sneaky",
        email: "sneaky@example.lk",
        password: "Secret-pass1",
        phone: "0771234567",
        role: "moderator",
        status: "active",
      } as never,
      headers: browserHeaders(),
    });
    const row = await db
      .selectFrom("users")
      .select(["role", "status"])
      .where("email", "=", "sneaky@example.lk")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: "owner", status: "active" });
  });

  it("the settings action saves name and phone of the signed-in user and ignores a posted email", async () => {
    const { db } = ctx();
    const context = contextFor(db);
    const auth = getAuth(context.get(requestContext));
    await createOwnerAccount(db, {
      name: "Settings",
      email: "settings@example.lk",
      phone: "0700000009",
      password: "Secret-pass1",
    });
    const { headers } = await auth.api.signInEmail({
      body: { email: "settings@example.lk", password: "Secret-pass1" },
      headers: browserHeaders(),
      returnHeaders: true,
    });
    const post = (fields: Record<string, string>, origin = SITE) =>
      settingsAction({
        request: new Request(`${SITE}/dashboard/settings`, {
          method: "POST",
          headers: { origin, cookie: cookieJar(headers) },
          body: new URLSearchParams(fields),
        }),
        params: {},
        context,
      } as unknown as Parameters<typeof settingsAction>[0]);

    await post({ name: "  New Name ", phone: "0711111119", email: "hijack@example.lk" });
    const row = await db
      .selectFrom("users")
      .select(["name", "phone", "email"])
      .where("email", "=", "settings@example.lk")
      .executeTakeFirst();
    expect(row).toEqual({ name: "New Name", phone: "0711111119", email: "settings@example.lk" });

    const invalid = (await post({ name: " ", phone: "12" })) as unknown as { init: { status: number } };
    expect(invalid.init.status).toBe(400);
    const foreign = (await post({ name: "Evil", phone: "" }, "https://evil.example")) as unknown as {
      init: { status: number };
    };
    expect(foreign.init.status).toBe(403);
    const after = await db
      .selectFrom("users")
      .select("name")
      .where("email", "=", "settings@example.lk")
      .executeTakeFirstOrThrow();
    expect(after.name).toBe("New Name");
  });

  it("a reset token is stored only as a hash: a stolen verifications row cannot reset the password, the emailed link still can", async () => {
    const { db } = ctx();
    const context = contextFor(db);
    const auth = getAuth(context.get(requestContext));
    const owner = await createOwnerAccount(db, {
      name: "Hashed",
      email: "hashed-reset@example.lk",
      phone: "0700000011",
      password: "Old-pass123",
    });
    await auth.api.requestPasswordReset({ body: { email: "hashed-reset@example.lk" }, headers: browserHeaders() });
    const mail = await db
      .selectFrom("outbox")
      .select("text")
      .where("to", "=", "hashed-reset@example.lk")
      .executeTakeFirstOrThrow();
    const token = new URL(/http\S+/.exec(mail.text)![0]).searchParams.get("token")!;

    const rows = await db.selectFrom("verifications").selectAll().where("value", "=", owner.id).execute();
    expect(rows).toHaveLength(1);
    const stored = rows[0];
    expect(stored.identifier).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);

    const reset = (tokenValue: string, password: string) =>
      resetPasswordAction({
        request: new Request(`${SITE}/reset-password`, {
          method: "POST",
          headers: { origin: SITE },
          body: new URLSearchParams({ token: tokenValue, password, confirmPassword: password }),
        }),
        params: {},
        context,
      } as unknown as Parameters<typeof resetPasswordAction>[0]);
    // What an attacker with a copy of the database would try: the stored identifier, with or without a prefix.
    for (const stolen of [stored.identifier, stored.identifier.replace(/^reset-password:/, "")]) {
      const attempt = (await reset(stolen, "Stolen-pass123")) as unknown as { init: { status: number } };
      expect(attempt.init.status).toBe(400);
    }
    await expect(
      auth.api.signInEmail({
        body: { email: "hashed-reset@example.lk", password: "Stolen-pass123" },
        headers: browserHeaders(),
      }),
    ).rejects.toMatchObject({
      body: { code: "INVALID_EMAIL_OR_PASSWORD" },
    });

    expect(await reset(token, "New-pass123")).toEqual({ status: "done" });
    const signedIn = await auth.api.signInEmail({
      body: { email: "hashed-reset@example.lk", password: "New-pass123" },
      headers: browserHeaders(),
    });
    expect(signedIn.user.id).toBe(owner.id);
  });

  it("the settings action sends visitors without a session to the login page", async () => {
    const { db } = ctx();
    const result = await settingsAction({
      request: new Request(`${SITE}/dashboard/settings`, {
        method: "POST",
        headers: { origin: SITE },
        body: new URLSearchParams({ name: "x" }),
      }),
      params: {},
      context: contextFor(db),
    } as unknown as Parameters<typeof settingsAction>[0]).catch((thrown: unknown) => thrown);
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).headers.get("location")).toBe("/login?redirectTo=%2Fdashboard%2Fsettings");
  });
});
