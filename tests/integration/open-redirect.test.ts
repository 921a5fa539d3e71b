import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { cookieHeaders, getAuth } from "../../app/auth/auth.server";
import type { DB } from "../../app/db/db.server";
import { createOwnerAccount } from "../../app/models/account.server";
import { loader as languageLoader } from "../../app/routes/language.$locale";
import { action as loginAction, loader as loginLoader } from "../../app/routes/login";
import { requestContext } from "../../app/services.server";
import { REDIRECT_BYPASSES, SAFE_REDIRECTS } from "../redirect-bypasses";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";

// ADR 016: `/login?redirectTo=…` must never send a signed-in person to
// another site, whether the loader sends them on (already signed in) or the
// form does (signing in without JavaScript, or with it).

const PASSWORD = "Secret-pass1";
type Loader = (args: { request: Request; params: Record<string, string>; context: unknown }) => Promise<unknown>;

/** Where a browser goes with this Location (WHATWG parsing drops tabs and newlines, reads \ as /). */
function browserOrigin(location: string): string {
  return new URL(location, TEST_SITE).origin;
}

async function signedInCookie(db: DB, email: string): Promise<string> {
  const { headers } = await getAuth(testContext({ db }).get(requestContext)).api.signInEmail({
    body: { email, password: PASSWORD },
    headers: new Headers({ origin: TEST_SITE }),
    returnHeaders: true,
  });
  return cookieHeaders(headers)
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** The Location of a redirect thrown or returned by a loader or action. */
async function locationOf(run: () => Promise<unknown>): Promise<string | null> {
  const result = await run().catch((thrown: unknown) => thrown);
  return result instanceof Response ? result.headers.get("location") : null;
}

const loginUrl = (redirectTo: string) => `${TEST_SITE}/login?redirectTo=${encodeURIComponent(redirectTo)}`;

describeEachDatabase("open redirect after login", (ctx) => {
  async function owner(db: DB) {
    const email = `redirect-${randomBytes(4).toString("hex")}@example.lk`;
    await createOwnerAccount(db, { name: "Redirect Owner", email, phone: "0771234567", password: PASSWORD });
    return email;
  }

  it("the reported attack: a signed-in person opening /login?redirectTo=%2F%09%2Fevil.example stays on the site", async () => {
    const { db } = ctx();
    const cookie = await signedInCookie(db, await owner(db));
    const request = new Request(`${TEST_SITE}/login?redirectTo=%2F%09%2Fevil.example`, { headers: { cookie } });
    const location = await locationOf(() =>
      (loginLoader as Loader)({ request, params: {}, context: testContext({ db }) }),
    );
    expect(location).toBe("/dashboard");
  });

  it("every known bypass in the loader (already signed in) ends on our own site", async () => {
    const { db } = ctx();
    const cookie = await signedInCookie(db, await owner(db));
    for (const value of REDIRECT_BYPASSES) {
      const request = new Request(loginUrl(value), { headers: { cookie } });
      const location = await locationOf(() =>
        (loginLoader as Loader)({ request, params: {}, context: testContext({ db }) }),
      );
      expect(location, JSON.stringify(value)).not.toBeNull();
      expect(browserOrigin(location!), JSON.stringify(value)).toBe(TEST_SITE);
      expect(location, JSON.stringify(value)).toMatch(/^\/(?![/\\])/);
    }
  });

  it("every known bypass in the form (signing in without and with JavaScript) ends on our own site", async () => {
    const { db } = ctx();
    const email = await owner(db);
    const limiter = testContext({ db }).get(requestContext).limiter;
    for (const value of REDIRECT_BYPASSES) {
      for (const enhanced of [false, true]) {
        const fields: Record<string, string> = { intent: "login", email, password: PASSWORD, redirectTo: value };
        if (enhanced) fields.enhanced = "1";
        const request = new Request(`${TEST_SITE}/login`, {
          method: "POST",
          headers: { origin: TEST_SITE },
          body: new URLSearchParams(fields),
        });
        const result = await (loginAction as Loader)({ request, params: {}, context: testContext({ db, limiter }) });
        const target = enhanced
          ? String(unwrapResult(result).body.redirectTo)
          : (result as Response).headers.get("location")!;
        expect(browserOrigin(target), JSON.stringify(value)).toBe(TEST_SITE);
        expect(target, JSON.stringify(value)).toMatch(/^\/(?![/\\])/);
      }
    }
  });

  it("same-site targets still work, in the loader and the form", async () => {
    const { db } = ctx();
    const email = await owner(db);
    const cookie = await signedInCookie(db, email);
    for (const [value, expected] of SAFE_REDIRECTS) {
      const request = new Request(loginUrl(value), { headers: { cookie } });
      expect(
        await locationOf(() => (loginLoader as Loader)({ request, params: {}, context: testContext({ db }) })),
      ).toBe(expected);
      const post = new Request(`${TEST_SITE}/login`, {
        method: "POST",
        headers: { origin: TEST_SITE },
        body: new URLSearchParams({ intent: "login", email, password: PASSWORD, redirectTo: value }),
      });
      const result = await (loginAction as Loader)({ request: post, params: {}, context: testContext({ db }) });
      expect((result as Response).headers.get("location")).toBe(expected);
    }
  });
});

// The language switcher (ADR 036) sends a reader on to `next` in another language: the path
// must still be ours once its language prefix is dropped, and the Location is built on
// SITE_URL, never on the Host header a client writes (ADR 062).
describeEachDatabase("open redirect through the language switcher", (ctx) => {
  /** The switcher's Location for `next`, asked as server/web-adapter.ts builds the request (its origin from Host). */
  function switchTo(locale: string, next: string, host = "127.0.0.1:3999"): string | null {
    const request = new Request(`http://${host}/language/${locale}?next=${encodeURIComponent(next)}`);
    const response = languageLoader({
      request,
      params: { locale },
      context: testContext({ db: ctx().db }),
    } as unknown as Parameters<typeof languageLoader>[0]);
    return response.headers.get("location");
  }

  it("the reported attack: /language/en?next=/si//evil.example/phish stays on the site", () => {
    expect(switchTo("en", "/si//evil.example/phish")).toBe(`${TEST_SITE}/`);
    expect(switchTo("en", "/ta//evil.example")).toBe(`${TEST_SITE}/`);
    expect(switchTo("si", "/ta//evil.example")).toBe(`${TEST_SITE}/si`);
  });

  it("builds the Location on SITE_URL whatever Host the request names", () => {
    expect(switchTo("si", "/browse", "evil.example")).toBe(`${TEST_SITE}/si/browse`);
    expect(switchTo("en", "/ta/about?x=1", "evil.example:8080")).toBe(`${TEST_SITE}/about?x=1`);
  });

  it("every known bypass, in every language, ends on our own site", () => {
    for (const locale of ["en", "si", "ta"])
      for (const value of REDIRECT_BYPASSES) {
        const location = switchTo(locale, value, "evil.example");
        expect(location, `${locale} ${JSON.stringify(value)}`).not.toBeNull();
        expect(browserOrigin(location!), `${locale} ${JSON.stringify(value)}`).toBe(TEST_SITE);
        expect(new URL(location!).pathname, `${locale} ${JSON.stringify(value)}`).not.toMatch(
          /^\/+(?:(?:si|ta)\/+)*\//,
        );
      }
  });

  it("same-site targets still work", () => {
    for (const [value, expected] of SAFE_REDIRECTS) expect(switchTo("en", value)).toBe(`${TEST_SITE}${expected}`);
  });
});
