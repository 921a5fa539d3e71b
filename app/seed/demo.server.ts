import { invalidatePublicPages } from "~/cache/invalidation.server";
import type { DB } from "~/db/db.server";
import { UNIVERSITIES } from "~/directory/universities";
import { currentTime } from "~/lib/clock";
import { createOwnerAccount, findUserByEmail } from "~/models/account.server";
import { recordDescriptionSketch } from "~/models/description-copies.server";
import { insertListing } from "~/models/listing.server";
import { storeProcessedPhoto } from "~/models/photo.server";
import type { Gender, PropertyType } from "~/schemas/browse-filters";
import type { PhotoStorage } from "~/storage/storage.server";
import { generateListing } from "./listing-text";
import { demoPhotoPool, type PoolPhoto } from "./photo-pool.server";
import { type Campus, campus } from "./places";
import { createRandom, type Random } from "./random";
import type { SceneKind } from "./scenes";

/** Listed in the README so anyone can sign in and try the owner pages. */
export const DEMO_PASSWORD = "Bodima-demo-2026";

export type DemoPerson = { name: string; email: string; phone: string };

export const DEMO_OWNERS: readonly DemoPerson[] = [
  { name: "Nimal Perera", email: "owner1@demo.bodima.lk", phone: "0771234567" },
  { name: "Kumari Silva", email: "owner2@demo.bodima.lk", phone: "0712345678" },
  { name: "Rizwan Mohamed", email: "owner3@demo.bodima.lk", phone: "0763456789" },
];

/**
 * The other landlords. An owner may have at most 3 listings, so ~80 listings
 * need more owners than the three demo logins; these have a random password
 * nobody knows.
 */
const LANDLORDS: Record<Region, readonly string[]> = {
  south: [
    "Sunil Jayasinghe",
    "Chandrika Wijesinghe",
    "Pradeep Gunawardena",
    "Malini Fernando",
    "Ajith Bandara",
    "Dilani Rathnayake",
    "Ruwan Dissanayake",
    "Sriyani Herath",
    "Lalith Wickramasinghe",
    "Anoma Karunaratne",
    "Mahinda Senanayake",
    "Nadeeka Weerasinghe",
    "Upali Abeysekara",
    "Fathima Rizna",
    "Mohamed Faizal",
    "Brian de Silva",
    "Kamala Rajapaksha",
    "Sarath Kumara",
    "Priyanthi Mendis",
    "Ameer Hassan",
    "Gamini Samarasinghe",
    "Shirani Peiris",
    "Chaminda Ekanayake",
    "Rohini Gamage",
  ],
  northEast: [
    "Suresh Kumar",
    "Thilaga Rajendran",
    "Kanagaratnam Sivakumar",
    "Vasuki Ponnampalam",
    "Ramesh Arulampalam",
    "Sithy Nazeera",
  ],
};
type Region = "south" | "northEast";
const NORTH_EAST = new Set(["university-of-jaffna", "eastern"]);

/** Listings per university (80 in all), busiest campuses first. */
const LISTINGS_PER_UNIVERSITY: Record<string, number> = {
  "university-of-moratuwa": 8,
  "university-of-colombo": 7,
  "university-of-peradeniya": 7,
  "university-of-sri-jayewardenepura": 7,
  "university-of-kelaniya": 6,
  "sliit-malabe": 6,
  "university-of-ruhuna": 6,
  "university-of-jaffna": 5,
  kdu: 4,
  "open-university-of-sri-lanka": 4,
  "technical-college-katubedda": 4,
  wayamba: 4,
  itum: 4,
  sabaragamuwa: 4,
  eastern: 4,
};

/** The first listings of these universities are at their other faculties. */
const OTHER_FACULTIES: Record<string, string[]> = {
  "university-of-colombo": ["uoc-medicine"],
  "university-of-kelaniya": ["uok-medicine"],
  "university-of-ruhuna": ["uor-medicine", "uor-medicine"],
  "university-of-sri-jayewardenepura": ["usj-engineering-current", "usj-engineering-new"],
};

/** Which demo owner gets which listing: [owner index, university id, n-th listing there]. */
const DEMO_OWNER_LISTINGS: [number, string, number][] = [
  [0, "university-of-moratuwa", 0],
  [0, "university-of-moratuwa", 1],
  [1, "university-of-colombo", 1],
  [1, "university-of-sri-jayewardenepura", 2],
  [1, "university-of-sri-jayewardenepura", 3],
  [2, "university-of-peradeniya", 0],
  [2, "university-of-kelaniya", 1],
];

const TYPE_CYCLE: PropertyType[] = ["single", "shared", "hostel", "apartment", "single", "shared", "single"];

const GENDER_ODDS: Record<PropertyType, [Gender, number][]> = {
  single: [
    ["female", 0.45],
    ["male", 0.3],
    ["any", 0.25],
  ],
  shared: [
    ["female", 0.4],
    ["male", 0.4],
    ["any", 0.2],
  ],
  hostel: [
    ["female", 0.5],
    ["male", 0.4],
    ["any", 0.1],
  ],
  apartment: [
    ["any", 0.7],
    ["female", 0.15],
    ["male", 0.15],
  ],
};

const FIRST_PICTURE: Record<PropertyType, SceneKind[]> = {
  single: ["room", "room-wardrobe"],
  shared: ["shared"],
  hostel: ["bunk", "shared"],
  apartment: ["house"],
};
const MORE_PICTURES: Record<PropertyType, SceneKind[]> = {
  single: ["room", "room-wardrobe", "house", "kitchen"],
  shared: ["shared", "house", "kitchen"],
  hostel: ["bunk", "house", "kitchen"],
  apartment: ["room", "room-wardrobe", "kitchen"],
};

const DAY_MS = 24 * 60 * 60 * 1000;
const SEED = 20261122;

type PlannedListing = {
  key: string;
  place: Campus;
  propertyType: PropertyType;
  gender: Gender;
  photoCount: number;
  owner: DemoPerson;
};

function pickGender(rand: Random, type: PropertyType): Gender {
  let roll = rand.next();
  for (const [gender, odds] of GENDER_ODDS[type]) {
    roll -= odds;
    if (roll < 0) return gender;
  }
  return "any";
}

function plan(rand: Random): PlannedListing[] {
  const landlords: Record<Region, DemoPerson[]> = {
    south: LANDLORDS.south.map((name) => ({ name, email: emailFor(name), phone: phoneNumber(rand) })),
    northEast: LANDLORDS.northEast.map((name) => ({ name, email: emailFor(name), phone: phoneNumber(rand) })),
  };
  const regionCounts: Record<Region, number> = { south: 0, northEast: 0 };
  const planned: (Omit<PlannedListing, "owner"> & { region: Region; demoOwner: number | null })[] = [];
  UNIVERSITIES.forEach((university, u) => {
    const count = LISTINGS_PER_UNIVERSITY[university.id] ?? 3;
    const faculties = OTHER_FACULTIES[university.id] ?? [];
    const region: Region = NORTH_EAST.has(university.id) ? "northEast" : "south";
    for (let i = 0; i < count; i++) {
      // Other helpers' tests rely on a single room at Moratuwa with three photos.
      const guaranteed = university.id === "university-of-moratuwa" && i === 0;
      const propertyType = guaranteed ? "single" : TYPE_CYCLE[(u + i) % TYPE_CYCLE.length];
      const demo = DEMO_OWNER_LISTINGS.find(([, id, n]) => id === university.id && n === i);
      if (!demo) regionCounts[region]++;
      planned.push({
        key: `${university.id}#${i}`,
        place: campus(university, faculties[i]),
        propertyType,
        gender: pickGender(rand, propertyType),
        photoCount: guaranteed ? 3 : rand.pick([1, 2, 2, 3, 3]),
        region,
        demoOwner: demo ? demo[0] : null,
      });
    }
  });
  // Neighbouring listings share a landlord, never more than three each.
  const perLandlord = (region: Region) => Math.ceil(regionCounts[region] / landlords[region].length);
  const assigned: Record<Region, number> = { south: 0, northEast: 0 };
  return planned.map(({ region, demoOwner, ...listing }) => {
    if (demoOwner !== null) return { ...listing, owner: DEMO_OWNERS[demoOwner] };
    const index = Math.floor(assigned[region]++ / perLandlord(region));
    return { ...listing, owner: landlords[region][index] };
  });
}

function phoneNumber(rand: Random): string {
  return `07${rand.pick(["0", "1", "2", "4", "5", "6", "7", "8"])}${String(rand.int(0, 9_999_999)).padStart(7, "0")}`;
}

function emailFor(name: string): string {
  return `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@demo.bodima.lk`;
}

type Owner = { id: string; email: string; name: string; phone: string };

async function ensureOwner(db: DB, person: DemoPerson, password: string): Promise<Owner> {
  const existing = await findUserByEmail(db, person.email);
  if (existing) return { ...existing, phone: person.phone };
  const created = await createOwnerAccount(db, { ...person, password });
  return { ...created, phone: person.phone };
}

function pictures(rand: Random, pool: PoolPhoto[], type: PropertyType, count: number): PoolPhoto[] {
  const first = rand.pick(pool.filter((p) => FIRST_PICTURE[type].includes(p.kind)));
  const rest = rand.sample(
    pool.filter((p) => p !== first && MORE_PICTURES[type].includes(p.kind)),
    count - 1,
  );
  return [first, ...rest];
}

/**
 * Fills an empty database with realistic listings: every university, property
 * type and gender, 1-3 drawn photos each, created over the last 25 days so
 * none has expired. The same content on every run (seeded random numbers).
 */
export async function seedDemo(db: DB, storage: PhotoStorage, now = currentTime()): Promise<number> {
  const rand = createRandom(SEED);
  const listings = plan(rand);
  const pool = await demoPhotoPool();

  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom("listings")
      .select((eb) => eb.fn.countAll().as("count"))
      .executeTakeFirst();
    if (Number(existing?.count ?? 0) > 0) return 0;

    const people = new Map(listings.map((l) => [l.owner.email, l.owner]));
    const landlordPassword = crypto.randomUUID();
    const owners = new Map(
      await Promise.all(
        [...people.values()].map(async (person) => {
          const isDemo = DEMO_OWNERS.includes(person);
          const owner = await ensureOwner(trx, person, isDemo ? DEMO_PASSWORD : landlordPassword);
          return [person.email, owner] as const;
        }),
      ),
    );

    // Oldest first, so ad numbers grow with the posting date as they would for real.
    const dated = listings
      .map((listing) => ({ listing, ageMs: Math.round((0.02 + rand.next() * 24.9) * DAY_MS) }))
      .sort((a, b) => b.ageMs - a.ageMs || a.listing.key.localeCompare(b.listing.key));

    for (const { listing, ageMs } of dated) {
      const owner = owners.get(listing.owner.email)!;
      const text = generateListing(rand, listing.place, { propertyType: listing.propertyType, gender: listing.gender });
      const createdAt = new Date(now.getTime() - ageMs);
      const { id } = await insertListing(
        trx,
        owner,
        { ...text, contactName: owner.name, contactPhone: owner.phone },
        createdAt,
      );

      const ageDays = ageMs / DAY_MS;
      const views = rand.int(0, Math.min(300, Math.round(20 + ageDays * 12)));
      const uniqueViews = Math.floor(views * (0.55 + rand.next() * 0.3));
      const lastViewed = views > 0 ? new Date(createdAt.getTime() + rand.next() * ageMs).toISOString() : null;
      if (views > 0)
        await trx.insertInto("listing_counters").values({ listingId: id, views, uniqueViews, lastViewed }).execute();
      // Texts drawn from a few templates match each other: marked, so they never count as copied (ADR 079).
      await recordDescriptionSketch(
        trx,
        { listingId: id, userId: owner.id, text: text.description, seeded: true },
        createdAt,
      );

      const chosen = pictures(rand, pool, listing.propertyType, listing.photoCount);
      for (const [position, picture] of chosen.entries()) {
        await storeProcessedPhoto(trx, storage, {
          userId: owner.id,
          listingId: id,
          position,
          alt: `${text.title} – photo ${position + 1}`,
          variants: picture.variants,
          // A dozen scenes shared by eighty listings of many owners: marked, so they never count as copied (ADR 074).
          fingerprint: picture.fingerprint,
          seeded: true,
          now: createdAt,
        });
      }
    }
    await invalidatePublicPages(trx, "all", now);
    return listings.length;
  });
}

export async function seedDemoIfEmpty(services: { db: DB; storage: PhotoStorage }): Promise<number> {
  const { db, storage } = services;
  const any = await db.selectFrom("listings").select("id").limit(1).executeTakeFirst();
  if (any) return 0;
  return seedDemo(db, storage);
}
