import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { toE164 } from "../../app/lib/phone";
import { insertListing } from "../../app/models/listing.server";
import { loader as myAdsLoader } from "../../app/routes/dashboard._index";
import { action as phoneCodeAction } from "../../app/routes/dashboard.phone-code";
import { listingInput } from "../factories";
import { signedInAccount } from "../owner-fixtures";
import { insertPhoneConfirmation, uniquePhone } from "../owner-session";
import { TEST_SITE, testContext } from "../request-context";
import { describeEachDatabase } from "../test-db";

// A confirmation lasts 180 days; then My Ads asks the owner to confirm the number of a live ad
// again, one tap for a new code, and the badge lapses until they do (ADR 076). Plain forms.

const DAY = 24 * 60 * 60 * 1000;

async function lapsedOn(db: DB, cookie: string): Promise<string[]> {
  const request = new Request(`${TEST_SITE}/dashboard`, { headers: { cookie } });
  const answer = await myAdsLoader({ request, context: testContext({ db }), params: {} } as unknown as Parameters<
    typeof myAdsLoader
  >[0]);
  return answer.lapsedPhones;
}

async function postCode(db: DB, cookie: string, fields: Record<string, string>) {
  const request = new Request(`${TEST_SITE}/dashboard/phone-code`, {
    method: "POST",
    headers: { cookie, origin: TEST_SITE, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ back: "/dashboard", ...fields }),
  });
  const answer = (await phoneCodeAction({ request, context: testContext({ db }), params: {} } as unknown as Parameters<
    typeof phoneCodeAction
  >[0])) as Response;
  return { status: answer.status, location: answer.headers.get("location") };
}

describeEachDatabase("confirming a number again after 180 days", (ctx) => {
  it("My Ads names a live ad's number whose confirmation lapsed; a new code, entered, confirms it again", async () => {
    const { db } = ctx();
    const { owner, cookie } = await signedInAccount(db, "again");
    const phone = uniquePhone();
    const local = `0${toE164(phone)!.slice(3)}`;
    await insertPhoneConfirmation(db, owner.id, phone, new Date(Date.now() - 181 * DAY));
    await insertListing(db, owner, listingInput({ title: "Room with an old number", contactPhone: phone }));
    // The profile's number was confirmed today, and a number on no ad is never asked about.
    await insertPhoneConfirmation(db, owner.id, uniquePhone(), new Date(Date.now() - 200 * DAY));
    expect(await lapsedOn(db, cookie)).toEqual([local]);

    const sent = await postCode(db, cookie, { intent: "send", phone: local });
    expect(sent).toEqual({ status: 303, location: `/dashboard?phone=${local}&phoneCode=sent` });
    const text = await db
      .selectFrom("outbox")
      .select("text")
      .where("kind", "=", "sms")
      .where("to", "=", toE164(phone)!)
      .executeTakeFirstOrThrow();
    const code = /\b(\d{6})\b/.exec(text.text)![1];

    const wrong = await postCode(db, cookie, {
      intent: "confirm",
      phone: local,
      code: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.location).toBe(`/dashboard?phone=${local}&phoneCode=phone.code_wrong&triesLeft=2`);
    expect(await lapsedOn(db, cookie)).toEqual([local]);

    const confirmed = await postCode(db, cookie, { intent: "confirm", phone: local, code });
    expect(confirmed.location).toBe(`/dashboard?phone=${local}&phoneCode=confirmed`);
    expect(await lapsedOn(db, cookie)).toEqual([]);
  });

  it("a confirmation 179 days old still stands", async () => {
    const { db } = ctx();
    const { owner, cookie } = await signedInAccount(db, "again-standing");
    const phone = uniquePhone();
    await insertPhoneConfirmation(db, owner.id, phone, new Date(Date.now() - 179 * DAY));
    await insertListing(db, owner, listingInput({ title: "Room", contactPhone: phone }));
    expect(await lapsedOn(db, cookie)).toEqual([]);
  });

  it("the route answers the post form in JSON, and refuses another site", async () => {
    const { db } = ctx();
    const { cookie } = await signedInAccount(db, "again-json");
    const phone = uniquePhone();
    const request = (origin: string) =>
      new Request(`${TEST_SITE}/dashboard/phone-code`, {
        method: "POST",
        headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "send", phone }),
      });
    const call = (origin: string) =>
      phoneCodeAction({ request: request(origin), context: testContext({ db }), params: {} } as unknown as Parameters<
        typeof phoneCodeAction
      >[0]) as Promise<Response>;
    const sent = await call(TEST_SITE);
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({ ok: true, status: "sent", phone: toE164(phone) });
    // 'Send a new code' past the number's 3 codes in 10 minutes answers with that limit's wait.
    for (let i = 0; i < 2; i++) expect((await call(TEST_SITE)).status).toBe(200);
    const limited = await call(TEST_SITE);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ ok: false, code: "phone.limited_number", values: { minutes: 10 } });
    const foreign = await call("https://evil.example");
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ ok: false, code: "origin" });
  });
});
