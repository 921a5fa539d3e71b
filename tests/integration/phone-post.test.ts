import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { toE164 } from "../../app/lib/phone";
import { createOwnerListing, updateOwnerListing } from "../../app/models/owner-listings.server";
import { createPhoneConfirmation } from "../../app/models/phone-confirmation.server";
import { action as editAction } from "../../app/routes/dashboard.listings.$id.edit";
import { action as newAction } from "../../app/routes/dashboard.listings.new";
import { requestContext } from "../../app/services.server";
import { createLocalPhotoStorage, type PhotoStorage } from "../../app/storage/storage.server";
import { insertTestOwner, testJpeg } from "../factories";
import { LISTING_FORM, signedInAccount } from "../owner-fixtures";
import { insertPhoneConfirmation, uniquePhone } from "../owner-session";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";

// The contact phone's SMS code inside the post and edit forms, and the 3 ads per phone across
// accounts (ADR 076). Texts go to the outbox (SMS_URL's default on a local site, ADR 075).

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function tempStorage(): Promise<PhotoStorage> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bodima-phone-post-"));
  dirs.push(dir);
  return createLocalPhotoStorage(dir);
}

const jpeg = testJpeg;

type Fields = Record<string, string | string[] | Buffer>;

/** Posts the form as a browser without JavaScript does (multipart, files included). */
async function post(
  db: DB,
  storage: PhotoStorage,
  cookie: string,
  fields: Fields,
  options: { editId?: number; phonesOff?: boolean } = {},
) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v === "string") body.append(name, v);
      else body.append(name, new Blob([new Uint8Array(v)], { type: "image/jpeg" }), "room.jpg");
    }
  }
  const url = options.editId ? `/dashboard/listings/${options.editId}/edit` : "/dashboard/listings/new";
  const request = new Request(`${TEST_SITE}${url}`, {
    method: "POST",
    headers: { origin: TEST_SITE, cookie },
    body,
  });
  const context = testContext({ db, storage });
  if (options.phonesOff) {
    const info = context.get(requestContext);
    // No SMS provider: what a public site without SMS_URL runs (ADR 075).
    info.phones = createPhoneConfirmation({
      db,
      sms: undefined,
      limiter: info.limiter,
      secret: "y".repeat(64),
      dailyBudget: 500,
      codeText: () => ({ text: "", unicode: false }),
    });
  }
  const args = { request, context, params: { id: String(options.editId ?? "") } };
  const result = options.editId
    ? await editAction(args as unknown as Parameters<typeof editAction>[0])
    : await newAction(args as unknown as Parameters<typeof newAction>[0]);
  return {
    ...unwrapResult(result),
    location: result instanceof Response ? result.headers.get("location") : null,
  };
}

/** The code in the last text the outbox kept for the number. */
async function lastCode(db: DB, phone: string): Promise<string> {
  const row = await db
    .selectFrom("outbox")
    .select("text")
    .where("kind", "=", "sms")
    .where("to", "=", toE164(phone)!)
    .orderBy("createdAt", "desc")
    .executeTakeFirstOrThrow();
  return /\b(\d{6})\b/.exec(row.text)![1];
}

async function listingsWith(db: DB, phone: string) {
  return db.selectFrom("listings").select(["id", "userId"]).where("contactPhoneE164", "=", toE164(phone)).execute();
}

describeEachDatabase("posting with the contact phone's SMS code", (ctx) => {
  it("without JavaScript: a new number gets a code, the form comes back with the photo kept, the code posts it", async () => {
    const { db } = ctx();
    const storage = await tempStorage();
    const { owner, cookie } = await signedInAccount(db, "code-post");
    const phone = uniquePhone();
    const form = { ...LISTING_FORM, title: "Room held for its code", contactPhone: phone };

    const held = await post(db, storage, cookie, { ...form, photos: await jpeg() });
    expect(held.status).toBe(200);
    const local = `0${toE164(phone)!.slice(3)}`;
    expect(held.body).toMatchObject({
      first: { key: "listingForm.phoneConfirm.sentPost", values: { phone: local } },
      phoneCode: { phone: local, sent: true },
      values: { title: "Room held for its code", contactPhone: phone },
    });
    expect(await listingsWith(db, phone)).toEqual([]);
    // The photo is the owner's upload now, sent back for the form to keep.
    const uploads = held.body.uploads as { id: string; url: string }[];
    expect(uploads).toHaveLength(1);
    expect(uploads[0].url).toMatch(/^\/photos\//);

    const wrong = await post(db, storage, cookie, { ...form, uploadIds: uploads[0].id, phoneCode: "000000" });
    const code = await lastCode(db, phone);
    if (code === "000000") return; // One in a million: the guess was right.
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      errors: { phoneCode: { key: "listingForm.phoneConfirm.codeWrong", values: { triesLeft: 2 } } },
      phoneCode: { phone: local, sent: false },
      uploads: [{ id: uploads[0].id }],
    });
    expect(await listingsWith(db, phone)).toEqual([]);

    const posted = await post(db, storage, cookie, { ...form, uploadIds: uploads[0].id, phoneCode: code });
    expect(posted.location).toBe("/dashboard?posted=1");
    const [listing] = await listingsWith(db, phone);
    expect(listing.userId).toBe(owner.id);
    const photos = await db.selectFrom("listing_photos").select("id").where("listingId", "=", listing.id).execute();
    expect(photos.map((p) => p.id)).toEqual([uploads[0].id]);

    // Confirmed once: the next ad with the number asks for no code.
    const again = await post(db, storage, cookie, { ...form, title: "Second room", photos: await jpeg() });
    expect(again.location).toBe("/dashboard?posted=1");
    expect(await listingsWith(db, phone)).toHaveLength(2);
  });

  it("a landline is refused on the phone field while codes are on; with phone confirmation off it posts as before", async () => {
    const { db } = ctx();
    const storage = await tempStorage();
    const { cookie } = await signedInAccount(db, "code-landline");
    const form = { ...LISTING_FORM, title: "Room with a landline", contactPhone: "011 234 5678", photos: await jpeg() };
    const refused = await post(db, storage, cookie, form);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errors: { contactPhone: { key: "listingForm.phoneConfirm.notMobile" } } });
    expect(await listingsWith(db, "011 234 5678")).toEqual([]);

    const fresh = uniquePhone();
    const off = await post(db, storage, cookie, { ...form, contactPhone: fresh }, { phonesOff: true });
    expect(off.location).toBe("/dashboard?posted=1");
    expect(await listingsWith(db, fresh)).toHaveLength(1);
  });

  it("editing: keeping the number asks nothing; moving the ad to a new number waits for its code", async () => {
    const { db } = ctx();
    const storage = await tempStorage();
    const { owner, cookie } = await signedInAccount(db, "code-edit");
    const created = await createOwnerListing(db, storage, owner, LISTING_FORM, { files: [await jpeg()] });
    if (!created.ok) throw new Error(created.code);
    const id = created.listing.id;
    const kept = await post(db, storage, cookie, { ...LISTING_FORM, title: "Renamed" }, { editId: id });
    expect(kept.location).toBe("/dashboard?updated=1");

    const phone = uniquePhone();
    const held = await post(db, storage, cookie, { ...LISTING_FORM, contactPhone: phone }, { editId: id });
    expect(held.body).toMatchObject({ first: { key: "listingForm.phoneConfirm.sentEdit" } });
    const before = await db.selectFrom("listings").select("contactPhone").where("id", "=", id).executeTakeFirst();
    expect(before?.contactPhone).toBe(owner.phone);
    const code = await lastCode(db, phone);
    const saved = await post(
      db,
      storage,
      cookie,
      { ...LISTING_FORM, contactPhone: phone, phoneCode: code },
      { editId: id },
    );
    expect(saved.location).toBe("/dashboard?updated=1");
    expect(await listingsWith(db, phone)).toEqual([{ id, userId: owner.id }]);

    // An ad from before with a landline keeps it through an edit of other fields, written another way too.
    const old = await createOwnerListing(
      db,
      storage,
      owner,
      { ...LISTING_FORM, contactPhone: "011 234 5678" },
      {
        files: [await jpeg()],
      },
    );
    if (!old.ok) throw new Error(old.code);
    const landline = await post(
      db,
      storage,
      cookie,
      { ...LISTING_FORM, title: "Same landline", contactPhone: "011-2345678" },
      { editId: old.listing.id },
    );
    expect(landline.location).toBe("/dashboard?updated=1");
  });

  it("WhatsApp on a number of its own waits for its own code after the contact number's; an edit keeps or clears it", async () => {
    const { db } = ctx();
    const storage = await tempStorage();
    const { owner, cookie } = await signedInAccount(db, "code-whatsapp");
    const [contact, whatsapp] = [uniquePhone(), uniquePhone()];
    const form = { ...LISTING_FORM, title: "Room on two numbers", contactPhone: contact, whatsapp: "1" };
    const local = (phone: string) => `0${toE164(phone)!.slice(3)}`;

    // A landline is no WhatsApp number: refused on its field before anything is sent.
    const landline = await post(db, storage, cookie, { ...form, whatsappPhone: "011 234 5678", photos: await jpeg() });
    expect(landline.status).toBe(400);
    expect(landline.body).toMatchObject({ errors: { whatsappPhone: { key: "listingForm.errors.whatsappPhone" } } });

    const first = await post(db, storage, cookie, { ...form, whatsappPhone: whatsapp, photos: await jpeg() });
    expect(first.body).toMatchObject({ phoneCode: { phone: local(contact), sent: true } });
    const uploadIds = (first.body.uploads as { id: string }[]).map((u) => u.id);
    // The contact number's code confirms it; the same code is not tried on the WhatsApp number, which gets its own.
    const second = await post(db, storage, cookie, {
      ...form,
      whatsappPhone: whatsapp,
      uploadIds,
      phoneCode: await lastCode(db, contact),
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ phoneCode: { phone: local(whatsapp), sent: true } });
    expect(second.body.errors).toEqual({});
    expect(await listingsWith(db, contact)).toEqual([]);

    const posted = await post(db, storage, cookie, {
      ...form,
      whatsappPhone: whatsapp,
      uploadIds,
      phoneCode: await lastCode(db, whatsapp),
    });
    expect(posted.location).toBe("/dashboard?posted=1");
    const [listing] = await listingsWith(db, contact);
    const stored = await db
      .selectFrom("listings")
      .select("whatsappPhone")
      .where("id", "=", listing.id)
      .executeTakeFirst();
    expect(stored?.whatsappPhone).toBe(whatsapp);

    // Editing: keeping both numbers asks nothing; typing the contact number again clears WhatsApp's own.
    const kept = await post(
      db,
      storage,
      cookie,
      { ...form, whatsappPhone: whatsapp, title: "Kept" },
      {
        editId: listing.id,
      },
    );
    expect(kept.location).toBe("/dashboard?updated=1");
    const same = await post(db, storage, cookie, { ...form, whatsappPhone: contact }, { editId: listing.id });
    expect(same.location).toBe("/dashboard?updated=1");
    const cleared = await db
      .selectFrom("listings")
      .select("whatsappPhone")
      .where("id", "=", listing.id)
      .executeTakeFirst();
    expect(cleared?.whatsappPhone).toBeNull();
    expect(owner.id).toBe(listing.userId);
  });

  it("no account gets a code for a number another account confirmed and has ads with", async () => {
    const { db } = ctx();
    const storage = await tempStorage();
    const first = await signedInAccount(db, "code-first");
    const created = await createOwnerListing(db, storage, first.owner, LISTING_FORM, { files: [await jpeg()] });
    expect(created.ok).toBe(true);
    const second = await signedInAccount(db, "code-second");
    const taken = await post(db, storage, second.cookie, {
      ...LISTING_FORM,
      contactPhone: first.owner.phone,
      photos: await jpeg(),
    });
    expect(taken.status).toBe(400);
    expect(taken.body).toMatchObject({ errors: { contactPhone: { key: "listingForm.phoneConfirm.taken" } } });
    expect(await listingsWith(db, first.owner.phone)).toHaveLength(1);
  });
});

describeEachDatabase("3 ads per phone across accounts", (ctx) => {
  it("of 12 accounts posting with one number at once, at most 3 ads go up; the others are told why", async () => {
    const { db } = ctx();
    const storage = await tempStorage();
    const phone = uniquePhone();
    const owners = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const owner = await insertTestOwner(db, `per-phone-${i}-${crypto.randomUUID()}`, { phone });
        return { ...owner, name: "Owner" };
      }),
    );
    const photo = await jpeg();
    const results = await Promise.all(
      owners.map((owner, i) =>
        createOwnerListing(db, storage, owner, { ...LISTING_FORM, title: `Room ${i}` }, { files: [photo] }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    for (const refused of results.filter((r) => !r.ok))
      expect(refused).toEqual({ ok: false, code: "listing.phone_limit", field: "contactPhone" });
    expect(await listingsWith(db, phone)).toHaveLength(3);
  });

  it("an edit cannot move an ad onto a number that has 3 ads; the form says so on the phone field", async () => {
    const { db } = ctx();
    const storage = await tempStorage();
    const full = uniquePhone();
    for (let i = 0; i < 3; i++) {
      const owner = await insertTestOwner(db, `full-${i}-${crypto.randomUUID()}`, { phone: full });
      const r = await createOwnerListing(db, storage, { ...owner, name: "O" }, LISTING_FORM, { files: [await jpeg()] });
      expect(r.ok).toBe(true);
    }
    const { owner, cookie } = await signedInAccount(db, "full-edit");
    const created = await createOwnerListing(db, storage, owner, LISTING_FORM, { files: [await jpeg()] });
    if (!created.ok) throw new Error(created.code);
    expect(
      await updateOwnerListing(
        db,
        storage,
        owner,
        created.listing.id,
        { ...LISTING_FORM, contactPhone: full },
        {
          files: [],
        },
      ),
    ).toEqual({ ok: false, code: "listing.phone_limit", field: "contactPhone" });
    // Through the form: refused before any code is sent, in words on the phone field.
    await insertPhoneConfirmation(db, owner.id, full);
    const refused = await post(
      db,
      storage,
      cookie,
      { ...LISTING_FORM, contactPhone: full },
      { editId: created.listing.id },
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errors: { contactPhone: { key: "listingForm.errors.phoneLimit" } } });
    expect(await listingsWith(db, full)).toHaveLength(3);
  });
});
