import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createMemoryStore, createRateLimiter, DEFAULT_LIMITS } from "../../app/limits/rate-limit.server";
import { action as contactAction } from "../../app/routes/contact";
import { action as signupAction } from "../../app/routes/signup";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";

// ADR 025: the routes pass the client's address and the
// limiter keys it, so every per-address limit takes one IPv6 customer's whole
// /64 as one address, whichever route counts it.

function poster(db: DB) {
  const limiter = createRateLimiter(createMemoryStore());
  return async (action: unknown, path: string, fields: Record<string, string>, clientIp: string) => {
    const request = new Request(`${TEST_SITE}${path}`, {
      method: "POST",
      headers: { origin: TEST_SITE, "user-agent": "vitest" },
      body: new URLSearchParams(fields),
    });
    const call = action as (args: unknown) => Promise<unknown>;
    return unwrapResult(await call({ request, params: {}, context: testContext({ db, limiter, clientIp }) }));
  };
}

describeEachDatabase("limits per IPv6 /64", (ctx) => {
  it("contact: addresses of one /64 share the 5 an hour; another /64 does not", async () => {
    const post = poster(ctx().db);
    const message = { name: "Kasun", email: "kasun@example.lk", subject: "Other", message: "Hello there." };
    for (let i = 1; i <= DEFAULT_LIMITS.contactIp.max; i++) {
      expect((await post(contactAction, "/contact", message, `2001:db8:40:1::${i}`)).body).toEqual({ status: "sent" });
    }
    expect((await post(contactAction, "/contact", message, "2001:db8:40:1:aaaa::9")).status).toBe(429);
    expect((await post(contactAction, "/contact", message, "2001:db8:40:2::1")).body).toEqual({ status: "sent" });
  });

  it("sign-up: addresses of one /64 share the 5 accounts an hour", async () => {
    const post = poster(ctx().db);
    const signup = () => {
      const password = "Secret-pass1";
      const email = `v6-${randomBytes(4).toString("hex")}@example.lk`;
      return {
        name: "New Owner",
        email,
        phone: "0771234567",
        password,
        confirmPassword: password,
        terms: "on",
        enhanced: "1",
      };
    };
    for (let i = 1; i <= DEFAULT_LIMITS.signupIp.max; i++) {
      expect((await post(signupAction, "/signup", signup(), `2001:db8:50:1::${i}`)).body).toMatchObject({
        status: "success",
      });
    }
    expect((await post(signupAction, "/signup", signup(), "2001:db8:50:1::ff")).status).toBe(429);
    expect((await post(signupAction, "/signup", signup(), "2001:db8:50:2::1")).body).toMatchObject({
      status: "success",
    });
  });
});
