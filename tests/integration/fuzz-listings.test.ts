import fc from "fast-check";
import { expect, it } from "vitest";
import * as deleteListing from "../../app/routes/dashboard.listings.$id.delete";
import * as editListing from "../../app/routes/dashboard.listings.$id.edit";
import * as renewListing from "../../app/routes/dashboard.listings.$id.renew";
import * as newListing from "../../app/routes/dashboard.listings.new";
import * as photos from "../../app/routes/dashboard.photos";
import * as deletePhoto from "../../app/routes/dashboard.photos.$id.delete";
import {
  BIG_IDS,
  body,
  call,
  expectNo5xx,
  type FieldValue,
  fuzzFixtures,
  get,
  type Handler,
  inputs,
  LISTING_BASE,
  LISTING_FIELDS,
  type Overrides,
  overrides,
  post,
  received,
  settingsFor,
  stored,
  text,
} from "../fuzz";
import { describeEachDatabase } from "../test-db";

describeEachDatabase("fuzz: hostile input to owners' listings and photos never breaks the server", (ctx) => {
  const { ready: fx, context, parkListings } = fuzzFixtures(ctx);
  const saved = { listing: 0, edit: 0 };

  it("new listing: no 5xx; a posted title and description read back exactly", async () => {
    await fc.assert(
      fc.asyncProperty(inputs(LISTING_FIELDS, ["title", "description"]), async (o) => {
        const form = body(
          // The number the owner confirmed (the settings fuzz changes the profile's): no SMS code is asked.
          {
            ...LISTING_BASE,
            contactPhone: fx().owner.phone,
            photos: { file: fx().photo, name: "room.jpg", type: "image/jpeg" },
          },
          { ...o, multipart: true },
        );
        const request = post("/dashboard/listings/new", form, fx().owner.cookie);
        const [title, description] = [await received(request, "title"), await received(request, "description")];
        const before = await ctx().db.selectFrom("listings").select("id").orderBy("id", "desc").executeTakeFirst();
        const outcome = await call(newListing.action as Handler, request, context());
        expectNo5xx(outcome, "new listing");
        const created = await ctx()
          .db.selectFrom("listings")
          .selectAll()
          .where("id", ">", before?.id ?? 0)
          .execute();
        if (outcome.status < 400 && created.length > 0) {
          saved.listing++;
          expect(created).toHaveLength(1);
          expect(created[0].title).toBe(stored(title!));
          expect(created[0].description).toBe(stored(description!));
          expect(created[0].userId).toBe(fx().owner.id);
        } else {
          expect(created).toHaveLength(0);
        }
        await parkListings();
      }),
      settingsFor(),
    );
    expect(saved.listing).toBeGreaterThan(3);
  });

  it("edit listing: no 5xx; saved text reads back exactly; another id changes nothing", async () => {
    const ids = fc.oneof(
      fc.constant("own"),
      fc.constantFrom("0", "-1", "999999999", ...BIG_IDS, "1e3", "abc", "1;DROP TABLE listings", "%00"),
      text,
    );
    await fc.assert(
      fc.asyncProperty(inputs(LISTING_FIELDS, ["title", "description"]), ids, async (o, id) => {
        const own = id === "own";
        const param = own ? String(fx().listing.id) : id;
        const request = post(
          `/dashboard/listings/${encodeURIComponent(param)}/edit`,
          body({ ...LISTING_BASE, contactPhone: fx().owner.phone }, o),
          fx().owner.cookie,
        );
        const [title, description] = [await received(request, "title"), await received(request, "description")];
        const outcome = await call(editListing.action as Handler, request, context(), { id: param });
        expectNo5xx(outcome, "edit listing");
        expectNo5xx(
          await call(
            editListing.loader as Handler,
            get(`/dashboard/listings/${encodeURIComponent(param)}/edit`, fx().owner.cookie),
            context(),
            { id: param },
          ),
          "edit loader",
        );
        const row = await ctx()
          .db.selectFrom("listings")
          .selectAll()
          .where("id", "=", fx().listing.id)
          .executeTakeFirstOrThrow();
        if (own && outcome.status < 400 && outcome.body.ok !== false) {
          saved.edit++;
          expect(row.title).toBe(stored(title!));
          // An empty description is stored as "none given" (null).
          expect(row.description ?? "").toBe(stored(description!));
        }
      }),
      settingsFor(),
    );
    expect(saved.edit).toBeGreaterThan(3);
    for (const id of BIG_IDS) {
      expectNo5xx(
        await call(editListing.loader as Handler, get(`/dashboard/listings/${id}/edit`, fx().owner.cookie), context(), {
          id,
        }),
        `edit loader ${id}`,
      );
      expectNo5xx(
        await call(
          editListing.action as Handler,
          post(`/dashboard/listings/${id}/edit`, new URLSearchParams(LISTING_BASE), fx().owner.cookie),
          context(),
          { id },
        ),
        `edit ${id}`,
      );
    }
  });

  it("delete, renew and photo-delete: no 5xx for any id; nobody else's listing changes", async () => {
    const { db } = ctx();
    const others = async () =>
      db
        .selectFrom("listings")
        .select(["id", "status", "expiresAt"])
        .where("userId", "=", fx().parking)
        .orderBy("id")
        .execute();
    const before = await others();
    const parkedId = String(before[0]?.id ?? 1);
    const ids = fc
      .oneof(
        fc.constantFrom(
          parkedId,
          "0",
          "-1",
          ...BIG_IDS,
          "99999999999999999999",
          "1e3",
          "1.5",
          " 1",
          "abc",
          "1;DROP TABLE listings",
        ),
        text,
      )
      .filter((id) => id !== String(fx().listing.id));
    await fc.assert(
      fc.asyncProperty(ids, overrides(["intent", "confirm", "id"]), async (id, o) => {
        const form = () => body({}, o);
        for (const [handler, path] of [
          [deleteListing.action, `/dashboard/listings/${encodeURIComponent(id)}/delete`],
          [deleteListing.loader, `/dashboard/listings/${encodeURIComponent(id)}/delete`],
          [renewListing.action, `/dashboard/listings/${encodeURIComponent(id)}/renew`],
          [deletePhoto.action, `/dashboard/photos/${encodeURIComponent(id)}/delete`],
        ] as const) {
          const request =
            handler === deleteListing.loader ? get(path, fx().owner.cookie) : post(path, form(), fx().owner.cookie);
          expectNo5xx(await call(handler as Handler, request, context(), { id }), path);
        }
      }),
      {
        ...settingsFor(),
        examples: BIG_IDS.map((id) => [id, { values: {}, extra: {}, multipart: false }] as [string, Overrides]),
      },
    );
    expect(await others()).toEqual(before);
  });

  it("photo upload: no 5xx for any file or form", async () => {
    await fc.assert(
      fc.asyncProperty(overrides(["photo", "file", "photos"]), fc.boolean(), async (o, withRealPhoto) => {
        const base: Record<string, FieldValue> = withRealPhoto
          ? { photo: { file: fx().photo, name: "room.jpg", type: "image/jpeg" } }
          : {};
        const request = post("/dashboard/photos", body(base, o), fx().owner.cookie);
        expectNo5xx(await call(photos.action as Handler, request, context()), "photo upload");
      }),
      settingsFor(),
    );
  });
});
