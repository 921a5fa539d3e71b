import { randomUUID } from "node:crypto";
import sharp from "sharp";
import type { DB } from "../app/db/db.server";
import { insertListing } from "../app/models/listing.server";
import type { ListingOwner } from "../app/models/owner-listings.server";
import { NOT_STATED_FACTS } from "../app/schemas/listing-facts";
import type { NewListingInput } from "../app/schemas/listing-form";
import type { ReportInput } from "../app/schemas/report";
import { insertPhoneConfirmation, uniquePhone } from "./owner-session";

/** Test data builders: each test makes the rows it needs (docs/architecture.md). */

export type TestOwner = { id: string; email: string; phone: string };

/**
 * A users row for an owner (no credentials: for tests that only need listings), with a phone of
 * its own confirmed by SMS today (ADR 076), so its posts ask for no code and count for no one else.
 */
export async function insertTestOwner(
  db: DB,
  id: string,
  overrides: Partial<{ email: string; name: string; createdAt: string; phone: string }> = {},
): Promise<TestOwner> {
  const createdAt = overrides.createdAt ?? new Date().toISOString();
  const email = overrides.email ?? `${id}@example.com`;
  const phone = overrides.phone ?? uniquePhone();
  await db
    .insertInto("users")
    .values({
      id,
      name: overrides.name ?? "Owner",
      email,
      emailVerified: 0,
      image: null,
      phone,
      role: "owner",
      status: "active",
      createdAt,
      updatedAt: createdAt,
    })
    .execute();
  await insertPhoneConfirmation(db, id, phone);
  return { id, email, phone };
}

/** An owner as createOwnerListing takes one (with a name), its id `tag` and a random part. */
export async function insertListingOwner(db: DB, tag: string, name = "Nimali"): Promise<ListingOwner> {
  const { id, email, phone } = await insertTestOwner(db, `${tag}-${randomUUID().slice(0, 8)}`, { name });
  return { id, email, name, phone };
}

/** A real JPEG of one colour, 640 × 480, as a phone would send it. */
export function testJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 30, g: 140, b: 120 } } })
    .jpeg()
    .toBuffer();
}

/** A valid listing input; override what the test is about. */
export function listingInput(overrides: Partial<NewListingInput> = {}): NewListingInput {
  return {
    title: "Room",
    description: "A room for a student.",
    price: 10000,
    keymoneyFee: null,
    advanceMonths: null,
    deposit: null,
    location: null,
    latitude: null,
    longitude: null,
    exactPosition: false,
    whatsapp: false,
    viber: false,
    university: "University of Moratuwa",
    faculty: "Main Campus",
    city: "moratuwa",
    propertyType: "single",
    gender: "any",
    amenities: [],
    contactName: "Owner",
    contactPhone: "0771234567",
    ...NOT_STATED_FACTS,
    ...overrides,
  };
}

let listingSeq = 0;

/** An active listing of its own new owner; returns its id. `tag` names them in the data. */
export async function insertOwnedListing(db: DB, tag: string): Promise<number> {
  const n = ++listingSeq;
  const owner = await insertTestOwner(db, `${tag}-${n}-${Date.now()}`);
  return (await insertListing(db, owner, listingInput({ title: `Room ${n} (${tag})`, contactPhone: owner.phone }))).id;
}

/** A report of a listing as spam, as the report form sends it. */
export function reportInput(listingId: number, overrides: Partial<ReportInput> = {}): ReportInput {
  return {
    listingId: String(listingId),
    reporterName: "A",
    reporterEmail: "a@example.com",
    reporterContact: "0770000000",
    reason: "spam",
    description: "",
    ...overrides,
  };
}
