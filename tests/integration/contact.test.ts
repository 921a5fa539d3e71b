import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { action, loader } from "../../app/routes/contact";
import { TEST_SITE, testContext, unwrapResult as unwrap } from "../request-context";
import { describeEachDatabase } from "../test-db";

type ActionArgs = Parameters<typeof action>[0];
type LoaderArgs = Parameters<typeof loader>[0];

function contextFor(db: DB) {
  return testContext({ db, env: { SUPPORT_EMAIL: "help@example.lk" } });
}

function post(db: DB, fields: Record<string, string>) {
  const request = new Request(`${TEST_SITE}/contact`, { method: "POST", body: new URLSearchParams(fields) });
  return action({ request, params: {}, context: contextFor(db) } as unknown as ActionArgs);
}

async function countMessages(db: DB, email: string) {
  const rows = await db.selectFrom("contact_messages").selectAll().where("email", "=", email).execute();
  return rows;
}

const valid = {
  name: "Kasun Silva",
  email: "kasun@example.com",
  subject: "Technical Support",
  message: "The map link does not open.",
};

describeEachDatabase("contact form action", (ctx) => {
  it("stores a valid message before it reports success", async () => {
    const { db } = ctx();
    const { status, body } = unwrap(await post(db, { ...valid, website: "" }));
    expect(status).toBe(200);
    expect(body).toEqual({ status: "sent" });
    const rows = await countMessages(db, "kasun@example.com");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ...valid, status: "new" });
  });

  it("answers 400 with a message per field, keeps the values and stores nothing", async () => {
    const { db } = ctx();
    const { status, body } = unwrap(
      await post(db, { name: " ", email: "nobody@nowhere", subject: "Spam", message: "" }),
    );
    expect(status).toBe(400);
    expect(body).toEqual({
      status: "invalid",
      errors: {
        name: "info.contact.errors.nameRequired",
        email: "info.contact.errors.emailInvalid",
        subject: "info.contact.errors.subjectRequired",
        message: "info.contact.errors.messageRequired",
      },
      values: { name: " ", email: "nobody@nowhere", subject: "Spam", message: "" },
    });
    expect(await countMessages(db, "nobody@nowhere")).toHaveLength(0);
  });

  it("pretends to succeed for a filled honeypot but stores nothing", async () => {
    const { db } = ctx();
    const { status, body } = unwrap(
      await post(db, { ...valid, email: "bot@example.com", website: "http://spam.example" }),
    );
    expect(status).toBe(200);
    expect(body).toEqual({ status: "sent" });
    expect(await countMessages(db, "bot@example.com")).toHaveLength(0);
  });

  it("reports a failure (not success) when the message cannot be stored", async () => {
    const { db } = ctx();
    const broken = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === "insertInto") throw new Error("database unavailable");
        return Reflect.get(target, prop, receiver);
      },
    });
    const { status, body } = unwrap(await post(broken, { ...valid, email: "lost@example.com" }));
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: "failed", values: { email: "lost@example.com" } });
  });
});

it("prefills the subject and a listing reference from the query string", async () => {
  const request = new Request("http://localhost/contact?subject=report%20an%20issue&listing=1234");
  const result = await loader({ request, params: {}, context: contextFor({} as DB) } as unknown as LoaderArgs);
  expect(result.prefill).toEqual({ subject: "Report an Issue", listingId: "1234" });
  expect(result.supportEmail).toBe("help@example.lk");

  const odd = new Request("http://localhost/contact?subject=Free%20money&listing=12%3Cb%3E");
  const ignored = await loader({ request: odd, params: {}, context: contextFor({} as DB) } as unknown as LoaderArgs);
  expect(ignored.prefill).toEqual({ subject: "", listingId: null });
});
