import { expect, it } from "vitest";
import { getSessionUser } from "../../app/auth/auth.server";
import { signedSessionToken } from "../../app/auth/session-signature.server";
import { requestContext } from "../../app/services.server";
import { signedInAccount } from "../owner-fixtures";
import { insertOwner, insertSession } from "../owner-session";
import { TEST_SITE, testContext } from "../request-context";
import { describeEachDatabase } from "../test-db";

// Browser tests get their owners from tests/owner-session.ts, written straight into the
// server's database: this proves better-auth takes those rows and that cookie for a real
// sign-in, on both databases, so a browser test that uses them tests the site as it is.

describeEachDatabase("an owner and session written by the test factory", (ctx) => {
  it("is signed in: the site reads the cookie as that owner, with a confirmed address", async () => {
    const { db } = ctx();
    const context = testContext({ db });
    const owner = await insertOwner(db, { name: "Factory Owner" });
    const cookie = await insertSession(db, owner.id, context.get(requestContext).secrets.sessionSecret);
    const request = new Request(`${TEST_SITE}/dashboard`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
    expect(await getSessionUser(request, context)).toMatchObject({
      id: owner.id,
      email: owner.email,
      name: "Factory Owner",
      emailConfirmed: true,
      role: "owner",
    });
  });

  it("signs the cookie as better-auth does at a real sign-in", async () => {
    const { db } = ctx();
    const secret = testContext({ db }).get(requestContext).secrets.sessionSecret;
    const { cookie } = await signedInAccount(db, "signature");
    const value = decodeURIComponent(/bodima\.session_token=([^;]+)/.exec(cookie)![1]);
    const token = value.slice(0, value.lastIndexOf("."));
    expect(signedSessionToken(token, secret)).toBe(value);
  });

  it("a cookie signed with another secret signs nobody in", async () => {
    const { db } = ctx();
    const owner = await insertOwner(db);
    const cookie = await insertSession(db, owner.id, "another secret".repeat(4));
    const request = new Request(`${TEST_SITE}/dashboard`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
    expect(await getSessionUser(request, testContext({ db }))).toBeNull();
  });
});
