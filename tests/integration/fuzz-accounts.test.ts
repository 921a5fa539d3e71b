import fc from "fast-check";
import { expect, it } from "vitest";
import * as contact from "../../app/routes/contact";
import * as settings from "../../app/routes/dashboard.settings";
import * as login from "../../app/routes/login";
import * as resetPassword from "../../app/routes/reset-password";
import * as signup from "../../app/routes/signup";
import {
  body,
  call,
  expectNo5xx,
  fuzzFixtures,
  get,
  type Handler,
  inputs,
  overrides,
  post,
  received,
  settingsFor,
  signedIn,
  stored,
  text,
  unique,
} from "../fuzz";
import { TEST_PASSWORD } from "../owner-fixtures";
import { describeEachDatabase } from "../test-db";

describeEachDatabase("fuzz: hostile input to accounts and contact never breaks the server", (ctx) => {
  const { ready: fx, context } = fuzzFixtures(ctx);
  const saved = { signup: 0, contact: 0, settings: 0 };

  it("sign-up", async () => {
    const fields = ["name", "email", "phone", "password", "confirmPassword", "terms", "website", "attempt", "enhanced"];
    await fc.assert(
      fc.asyncProperty(inputs(fields, ["name"]), async (o) => {
        const base = {
          name: "Nimali",
          email: `${unique("s")}@example.lk`,
          phone: "0771234567",
          password: TEST_PASSWORD,
          confirmPassword: TEST_PASSWORD,
          terms: "on",
        };
        const outcome = await call(signup.action as Handler, post("/signup", body(base, o)), context());
        expectNo5xx(outcome, "signup");
        if (outcome.status === 302) saved.signup++;
      }),
      settingsFor(12),
    );
    expect(saved.signup).toBeGreaterThan(0);
  });

  it("login and forgot-password", async () => {
    const fields = ["email", "password", "intent", "redirectTo", "attempt", "enhanced"];
    await fc.assert(
      fc.asyncProperty(overrides(fields), fc.constantFrom("login", "forgot"), async (o, intent) => {
        const base = { email: fx().owner.email, password: "Wrong-pass1", intent };
        expectNo5xx(
          await call(login.action as Handler, post("/login?redirectTo=%2Fdashboard", body(base, o)), context()),
          "login",
        );
      }),
      settingsFor(12),
    );
  });

  it("reset-password", async () => {
    await fc.assert(
      fc.asyncProperty(overrides(["token", "password", "confirmPassword"]), text, async (o, token) => {
        const base = { token, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD };
        const request = post(`/reset-password?token=${encodeURIComponent(token)}`, body(base, o));
        expectNo5xx(await call(resetPassword.action as Handler, request, context()), "reset-password action");
        expectNo5xx(
          await call(
            resetPassword.loader as Handler,
            get(`/reset-password?token=${encodeURIComponent(token)}`),
            context(),
          ),
          "reset-password loader",
        );
      }),
      settingsFor(),
    );
  });

  it("contact: no 5xx; a message sent reads back exactly", async () => {
    await fc.assert(
      fc.asyncProperty(inputs(["name", "email", "subject", "message", "website"], ["name", "message"]), async (o) => {
        const email = `${unique("c")}@example.com`;
        const base = { name: "Kasun", email, subject: "Other", message: "Hello", website: "" };
        // The e-mail stays ours so the row can be found; everything else is fuzzed.
        const request = post("/contact", body(base, { ...o, values: { ...o.values, email } }));
        const [name, message] = [await received(request, "name"), await received(request, "message")];
        const outcome = await call(contact.action as Handler, request, context());
        expectNo5xx(outcome, "contact");
        const row = await ctx()
          .db.selectFrom("contact_messages")
          .selectAll()
          .where("email", "=", email)
          .executeTakeFirst();
        if (outcome.body.status === "sent" && row) {
          saved.contact++;
          expect(row.name).toBe(stored(name!));
          expect(row.message).toBe(stored(message!));
        } else {
          expect(row).toBeUndefined();
        }
      }),
      settingsFor(30),
    );
    expect(saved.contact).toBeGreaterThan(3);
  });

  it("dashboard settings: no 5xx; a saved name reads back exactly", async () => {
    await fc.assert(
      fc.asyncProperty(inputs(["name", "phone", "email"], ["name"]), async (o) => {
        const request = post(
          "/dashboard/settings",
          body({ name: "Fuzz Owner", phone: "0771234567" }, o),
          fx().owner.cookie,
        );
        const name = await received(request, "name");
        const outcome = await call(settings.action as Handler, request, context());
        expectNo5xx(outcome, "settings");
        const row = await ctx()
          .db.selectFrom("users")
          .select(["name", "email"])
          .where("id", "=", fx().owner.id)
          .executeTakeFirstOrThrow();
        expect(row.email).toBe(fx().owner.email);
        if (outcome.status < 400) {
          saved.settings++;
          expect(row.name).toBe(stored(name!));
        }
      }),
      settingsFor(),
    );
    expect(saved.settings).toBeGreaterThan(3);
  });

  it("dashboard settings: change password and sign out of other devices never answer 5xx", async () => {
    // An account of its own: signing other devices out must not end the fuzz owner's session.
    const account = await signedIn(ctx().db);
    await fc.assert(
      fc.asyncProperty(
        overrides(["currentPassword", "password", "confirmPassword"]),
        fc.constantFrom("password", "sessions"),
        async (o, intent) => {
          const base = {
            intent,
            currentPassword: "Wrong-pass1",
            password: "Brand-new-pass2",
            confirmPassword: "Brand-new-pass2",
          };
          const outcome = await call(
            settings.action as Handler,
            post("/dashboard/settings", body(base, { ...o, extra: {} }), account.cookie),
            context(),
          );
          expectNo5xx(outcome, `settings ${intent}`);
        },
      ),
      settingsFor(),
    );
  });
});
