import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { action as contactAction } from "../../app/routes/contact";
import { action as signupAction } from "../../app/routes/signup";
import { HONEYPOT_FIELD } from "../../app/schemas/honeypot";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";

type AnyAction = (args: { request: Request; params: Record<string, string>; context: unknown }) => Promise<unknown>;

function post(db: DB, action: unknown, path: string, fields: Record<string, string>) {
  const request = new Request(`${TEST_SITE}${path}`, {
    method: "POST",
    headers: { origin: TEST_SITE, "user-agent": "vitest" },
    body: new URLSearchParams(fields),
  });
  return (action as AnyAction)({ request, params: {}, context: testContext({ db }) });
}

const email = () => `bot-${randomBytes(4).toString("hex")}@example.lk`;

const signup = (address: string, extra: Record<string, string> = {}) => ({
  name: "Spam Bot",
  email: address,
  phone: "0771234567",
  password: "Secret-pass1",
  confirmPassword: "Secret-pass1",
  terms: "on",
  ...extra,
});

describeEachDatabase("honeypots", (ctx) => {
  it("sign-up with the honeypot filled answers like a failed sign-up and creates no account, with or without JavaScript", async () => {
    const { db } = ctx();
    for (const enhanced of [{ enhanced: "1" }, {}] as Record<string, string>[]) {
      const address = email();
      const { status, body } = unwrapResult(
        await post(
          db,
          signupAction,
          "/signup",
          signup(address, { ...enhanced, [HONEYPOT_FIELD]: "http://spam.example" }),
        ),
      );
      expect(status).toBe(400);
      expect(body).toMatchObject({ status: "failed", message: "accounts.signup.failed" });
      const users = await db.selectFrom("users").select("id").where("email", "=", address).execute();
      expect(users).toHaveLength(0);
    }
  });

  it("sign-up with the honeypot left empty creates the account", async () => {
    const { db } = ctx();
    const address = email();
    const result = await post(db, signupAction, "/signup", signup(address, { [HONEYPOT_FIELD]: "" }));
    // Without JavaScript a success is a redirect to the dashboard.
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).headers.get("location")).toBe("/dashboard");
    const users = await db.selectFrom("users").select("id").where("email", "=", address).execute();
    expect(users).toHaveLength(1);
  });

  it("contact with the honeypot filled answers the normal success, but stores and emails nothing", async () => {
    const { db } = ctx();
    const address = email();
    const fields = { name: "Bot", email: address, subject: "Other", message: "Cheap pills", [HONEYPOT_FIELD]: "x" };
    expect(unwrapResult(await post(db, contactAction, "/contact", fields))).toEqual({
      status: 200,
      body: { status: "sent" },
    });
    expect(await db.selectFrom("contact_messages").select("id").where("email", "=", address).execute()).toHaveLength(0);
    expect(await db.selectFrom("outbox").select("id").where("replyTo", "=", address).execute()).toHaveLength(0);
  });
});
