import { expect, it } from "vitest";
import { getAdResponse, listAdsResponse } from "../../app/api/listings.server";
import type { DB } from "../../app/db/db.server";
import { findOwnerListingForm } from "../../app/models/owner-listing-reads.server";
import { createOwnerListing, updateOwnerListing } from "../../app/models/owner-listings.server";
import { loader as listingLoader } from "../../app/routes/listing";
import type { RawListingForm } from "../../app/schemas/listing-form";
import type { ChatLink } from "../../app/schemas/listing-view";
import { insertListingOwner, testJpeg } from "../factories";
import { LISTING_FORM } from "../owner-fixtures";
import { testContext, unwrapResult } from "../request-context";
import { tempPhotoStorage } from "../temp-photo-storage";
import { describeEachDatabase } from "../test-db";

// WhatsApp and Viber beside 'Call Now' (ADR 087): the owner's boxes are stored
// when posting and editing, the page links only what was ticked, the detail
// API says which, and browse's list API still carries no phone at all.

const jpeg = testJpeg;

const newOwner = (db: DB) => insertListingOwner(db, "chat-apps");

type Args<T extends (...args: never[]) => unknown> = Parameters<T>[0];

async function pageChatLinks(db: DB, slug: string): Promise<ChatLink[]> {
  const page = unwrapResult(
    await listingLoader({ params: { slug }, context: testContext({ db }) } as unknown as Args<typeof listingLoader>),
  );
  return (page.body.listing as { chatLinks: ChatLink[] }).chatLinks;
}

async function apiAd(db: DB, slug: string) {
  return ((await (await getAdResponse(db, slug)).json()) as { ad: Record<string, unknown> }).ad;
}

describeEachDatabase("WhatsApp and Viber as the owner ticked them", (ctx) => {
  it("stores the boxes on posting and editing, and links only what is ticked", async () => {
    const { db } = ctx();
    const owner = await newOwner(db);
    const { storage } = tempPhotoStorage();
    const word = `chatapps${owner.id.slice(-8)}`;
    const title = `Room ${word}`;
    const form: RawListingForm = { ...LISTING_FORM, title, contactPhone: "077 123 4567", whatsapp: "1" };
    const posted = await createOwnerListing(db, storage, owner, form, { files: [await jpeg()] });
    if (!posted.ok) throw new Error(posted.code);
    const { id, slug } = posted.listing;

    expect((await pageChatLinks(db, slug)).map((link) => [link.kind, link.href.split("?")[0]])).toEqual([
      ["whatsapp", "https://wa.me/94771234567"],
    ]);
    expect(await apiAd(db, slug)).toMatchObject({ whatsapp: true, viber: false });
    expect((await findOwnerListingForm(db, owner.id, id))?.values).toMatchObject({ whatsapp: "1", viber: "" });

    const edited = await updateOwnerListing(
      db,
      storage,
      owner,
      id,
      { ...form, whatsapp: "", viber: "1" },
      { files: [] },
    );
    expect(edited.ok).toBe(true);
    expect(await pageChatLinks(db, slug)).toEqual([
      expect.objectContaining({ kind: "viber", href: "viber://chat?number=%2B94771234567" }),
    ]);
    expect(await apiAd(db, slug)).toMatchObject({ whatsapp: false, viber: true });
    expect((await findOwnerListingForm(db, owner.id, id))?.values).toMatchObject({ whatsapp: "", viber: "1" });

    // Browse's list API shows no phone and no chat link, as before.
    const list = await (await listAdsResponse(db, new URLSearchParams({ search: word }))).text();
    expect(list).toContain(title);
    for (const leak of ["whatsapp", "viber", "wa.me", "771234567"]) expect(list).not.toContain(leak);
  });

  it("leaves both off when the owner ticks neither", async () => {
    const { db } = ctx();
    const owner = await newOwner(db);
    const { storage } = tempPhotoStorage();
    const posted = await createOwnerListing(
      db,
      storage,
      owner,
      { ...LISTING_FORM, title: "Room without chat apps", contactPhone: "077 123 4567" },
      { files: [await jpeg()] },
    );
    if (!posted.ok) throw new Error(posted.code);
    expect(await pageChatLinks(db, posted.listing.slug)).toEqual([]);
    expect(await apiAd(db, posted.listing.slug)).toMatchObject({ whatsapp: false, viber: false });
  });
});
