import { coordinatesFromMapLink } from "~/lib/geo/coordinates";
import { AMENITIES, type Gender, type PropertyType } from "~/schemas/browse-filters";
import {
  BATHROOMS,
  BED_TYPES,
  BILLS,
  type ListingFacts,
  MEALS,
  NOT_STATED_FACTS,
  RULES,
} from "~/schemas/listing-facts";
import type { NewListingInput } from "~/schemas/listing-form";
import type { Campus } from "./places";
import { createRandom, type Random } from "./random";

/** Everything of a listing but its contact details, written the way local landlords write ads. */
export type GeneratedListing = Omit<NewListingInput, "contactName" | "contactPhone">;

type Amenity = (typeof AMENITIES)[number];

type Words = {
  who: string;
  group: string;
  hostel: string;
  area: string;
  areaShort: string;
  nick: string;
  landmark: string;
  /** "5 minutes walk" near campus, "15 minutes by bus" further out. */
  distance: string;
  /** The same, shorter, for titles. */
  shortDistance: string;
  people: number;
  bedrooms: number;
};

const TITLES: Record<PropertyType, ((w: Words) => string)[]> = {
  single: [
    (w) => `Single room for a ${w.who} near ${w.nick}`,
    (w) => `Furnished single room in ${w.areaShort}`,
    (w) => `Room with attached bathroom, ${w.shortDistance} to ${w.nick}`,
    (w) => `Quiet room in a family house – ${w.areaShort}`,
    (w) => `Single room for a ${w.who} in ${w.areaShort}`,
  ],
  shared: [
    (w) => `Shared room for ${w.people} ${w.group} near ${w.nick}`,
    (w) => `Sharing room with study tables – ${w.areaShort}`,
    (w) => `Bed in a shared room near ${w.nick}`,
    (w) => `Shared room for ${w.group} in ${w.areaShort}`,
  ],
  apartment: [
    (w) => `${["One", "Two", "Three"][w.bedrooms - 1]}-bedroom annex near ${w.nick}`,
    (w) => `Small apartment for students in ${w.areaShort}`,
    (w) => `Fully furnished annex with kitchen – ${w.areaShort}`,
    (w) => `Upstairs apartment for ${w.people} students, ${w.areaShort}`,
  ],
  hostel: [
    (w) => `${w.hostel} near ${w.nick}`,
    (w) => `${w.hostel} with meals – ${w.areaShort}`,
    (w) => `Hostel beds for ${w.group}, ${w.shortDistance} to ${w.nick}`,
    (w) => `${w.hostel} in ${w.areaShort}, close to ${w.nick}`,
  ],
};

const OPENINGS: Record<PropertyType, ((w: Words) => string)[]> = {
  single: [
    (w) => `Single room for a ${w.who}, ${w.distance} to ${w.landmark}.`,
    (w) => `Spacious single room in a quiet family house in ${w.area}, ${w.distance} to ${w.landmark}.`,
    (w) => `Neat single room on the upper floor of our house in ${w.area}, ${w.distance} to ${w.landmark}.`,
  ],
  shared: [
    (w) => `Shared room for ${w.people} ${w.group}, ${w.distance} to ${w.landmark}.`,
    (w) => `Large airy room in ${w.area} shared by ${w.people} ${w.group}, ${w.distance} to ${w.landmark}.`,
    (w) => `Sharing room in ${w.area} for ${w.group}, ${w.distance} to ${w.landmark}.`,
  ],
  apartment: [
    (w) =>
      `Separate annex with ${w.bedrooms} bedroom${w.bedrooms > 1 ? "s" : ""}, a hall, kitchen and bathroom, ${w.distance} to ${w.landmark}. Suitable for ${w.people} students.`,
    (w) =>
      `Newly built apartment in ${w.area} with its own entrance, ${w.distance} to ${w.landmark}. Ideal for a group of ${w.people}.`,
  ],
  hostel: [
    (w) => `${w.hostel} with ${w.people * 6} beds in ${w.people * 2} rooms, ${w.distance} to ${w.landmark}.`,
    (w) => `Well-kept ${w.hostel.toLowerCase()} in ${w.area}, ${w.distance} to ${w.landmark}.`,
  ],
};

const AMENITY_SENTENCES: Record<Amenity, (type: PropertyType) => string> = {
  WiFi: () => "WiFi included in the rent.",
  AC: (t) =>
    t === "apartment"
      ? "Air-conditioned bedrooms."
      : "The room is air-conditioned; AC electricity is charged by meter.",
  Parking: () => "Space to park a motorbike or bicycle.",
  Laundry: () => "Washing machine available.",
  Kitchen: (t) =>
    t === "apartment" ? "Kitchen with a gas cooker and fridge." : "Cooking allowed in the common kitchen.",
  Security: () => "Safe area with a lockable gate and CCTV.",
  "24/7 Water": () => "Water supply 24 hours, no cuts.",
  Furniture: (t) =>
    t === "apartment" ? "Furnished with beds, tables and a sofa set." : "Bed, table, chair and cupboard provided.",
};

const CLOSINGS = [
  "Electricity and water bills included.",
  "Electricity paid separately by meter.",
  "No smoking or alcohol, please.",
  "Please call after 5 pm on weekdays.",
  "Available now.",
  "Available from next month.",
  "Rent payable monthly in advance.",
];

/** Chance of each amenity per property type. */
const AMENITY_ODDS: Record<PropertyType, Record<Amenity, number>> = {
  single: {
    WiFi: 0.7,
    AC: 0.2,
    Parking: 0.3,
    Laundry: 0.3,
    Kitchen: 0.4,
    Security: 0.5,
    "24/7 Water": 0.6,
    Furniture: 0.8,
  },
  shared: {
    WiFi: 0.7,
    AC: 0.1,
    Parking: 0.2,
    Laundry: 0.3,
    Kitchen: 0.5,
    Security: 0.5,
    "24/7 Water": 0.6,
    Furniture: 0.8,
  },
  apartment: {
    WiFi: 0.6,
    AC: 0.35,
    Parking: 0.6,
    Laundry: 0.5,
    Kitchen: 1,
    Security: 0.6,
    "24/7 Water": 0.7,
    Furniture: 0.5,
  },
  hostel: {
    WiFi: 0.8,
    AC: 0.1,
    Parking: 0.2,
    Laundry: 0.5,
    Kitchen: 0.5,
    Security: 0.8,
    "24/7 Water": 0.7,
    Furniture: 0.9,
  },
};

/** Monthly rent in LKR before local adjustments. */
const PRICE_RANGES: Record<PropertyType, [number, number]> = {
  single: [9_000, 22_000],
  shared: [5_000, 11_000],
  apartment: [25_000, 52_000],
  hostel: [6_000, 14_000],
};

const DEARER_CITIES = new Set([
  "colombo",
  "colombo-medical",
  "nugegoda",
  "malabe",
  "ratmalana",
  "mount-lavinia-engineering",
]);
const CHEAPER_CITIES = new Set(["belihuloya", "batticaloa", "kuliyapitiya", "jaffna"]);

export const MIN_PRICE = 5_000;
export const MAX_PRICE = 60_000;

function roundToFiveHundred(n: number): number {
  return Math.round(n / 500) * 500;
}

function price(rand: Random, type: PropertyType, city: string, hasAc: boolean): number {
  const [low, high] = PRICE_RANGES[type];
  let amount = low + rand.next() * (high - low);
  if (DEARER_CITIES.has(city)) amount *= 1.15;
  if (CHEAPER_CITIES.has(city)) amount *= 0.8;
  if (hasAc) amount += 3_000;
  return Math.min(MAX_PRICE, Math.max(MIN_PRICE, roundToFiveHundred(amount)));
}

function keyMoney(rand: Random, type: PropertyType, rent: number): number | null {
  if (type === "apartment" && rand.chance(0.6)) return rent * rand.int(2, 3);
  if (type === "single" && rand.chance(0.25)) return rent;
  if (type === "shared" && rand.chance(0.1)) return rent;
  return null;
}

/**
 * Months of rent asked in advance and a refundable deposit, as owners near
 * campuses ask them (ADR 047): rooms one or two months, apartments three to
 * six with a deposit now and then, hostels often none; about one owner in
 * seven does not say. Drawn from a stream of their own, seeded by the listing's
 * rent and title, so every other value of a seed stays what it was before.
 */
function moveInTerms(
  type: PropertyType,
  rent: number,
  title: string,
): Pick<GeneratedListing, "advanceMonths" | "deposit"> {
  const rand = streamFor(rent, title);
  if (rand.chance(0.15)) return { advanceMonths: null, deposit: null };
  const advanceMonths =
    type === "apartment"
      ? rand.pick([3, 3, 6, 6, 12])
      : type === "hostel"
        ? rand.pick([0, 0, 1, 1, 2])
        : rand.pick([0, 1, 1, 2, 2, 3]);
  const deposit =
    type === "apartment" && rand.chance(0.3) ? rent : type !== "hostel" && rand.chance(0.1) ? 5_000 : null;
  return { advanceMonths, deposit };
}

/**
 * The facts students ask first (ADR 051), agreeing with what the description
 * says (bills, meals, an attached bathroom, cooking, a hostel's beds) and
 * drawn otherwise; about one owner in six states none of them. Its own random
 * stream, like moveInTerms.
 */
function facts(type: PropertyType, gender: Gender, rent: number, description: string): ListingFacts {
  const rand = streamFor(rent * 7 + 3, description);
  if (rand.chance(0.17)) return { ...NOT_STATED_FACTS };
  const said = (pattern: RegExp) => pattern.test(description);
  const maybe = <T>(value: T, stated = 0.85): T | null => (rand.chance(stated) ? value : null);
  const bills = said(/bills included/i)
    ? "included"
    : said(/separately by meter|charged by meter/i)
      ? "meter"
      : maybe(type === "hostel" ? rand.pick(["included", "included", "shared"] as const) : rand.pick(BILLS));
  const meals = said(/can be provided/i)
    ? "available"
    : maybe(type === "hostel" ? rand.pick(MEALS) : rand.pick(["none", "none", "none", "available"] as const));
  const bathroom = said(/attached bathroom|and bathroom/i)
    ? "attached"
    : maybe(type === "apartment" ? "attached" : type === "single" ? rand.pick(BATHROOMS) : "shared");
  let bedsTotal: number | null = null;
  let bedsFree: number | null = null;
  if (BED_TYPES.includes(type) && rand.chance(0.8)) {
    bedsTotal = Number(/(\d+) beds/.exec(description)?.[1] ?? (type === "hostel" ? rand.int(12, 36) : rand.int(2, 4)));
    bedsFree = rand.int(0, Math.min(bedsTotal, type === "hostel" ? 6 : bedsTotal));
  }
  const curfew =
    type === "hostel" || gender === "female"
      ? maybe(rand.pick(["21:00", "21:30", "22:00", "22:00", "22:30"]))
      : maybe(rand.pick(["none", "none", "22:00", "23:00"]));
  const visitors = maybe(rand.pick(type === "apartment" ? (["allowed"] as const) : RULES));
  const cooking = said(/cooking allowed|kitchen/i) ? "allowed" : maybe(rand.pick(RULES));
  return { bills, meals, bathroom, bedsFree, bedsTotal, curfew, visitors, cooking };
}

/**
 * Where the listing is, as the form would store it (ADR 049): the map link's
 * point when it has one, else for about half the rest a pin the owner dropped
 * within 3 km of the campus, else none (the listing counts from its city's
 * centre). Its own random stream, like moveInTerms.
 */
function position(
  location: string,
  place: Campus,
  rent: number,
  title: string,
): Pick<GeneratedListing, "latitude" | "longitude"> {
  const linked = coordinatesFromMapLink(location);
  if (linked) return linked;
  const rand = streamFor(rent + 1, title);
  if (rand.chance(0.5)) return { latitude: null, longitude: null };
  // Up to about 3 km north or south and east or west (0.027° is 3 km at these latitudes).
  const offset = () => (rand.next() - 0.5) * 2 * 0.027;
  return {
    latitude: Number((place.faculty.latitude + offset()).toFixed(5)),
    longitude: Number((place.faculty.longitude + offset()).toFixed(5)),
  };
}

/** A random stream seeded by a listing's own values, apart from the seed's main one. */
function streamFor(start: number, title: string): Random {
  let seed = start;
  for (const char of title) seed = (Math.imul(seed, 31) + char.charCodeAt(0)) >>> 0;
  return createRandom(seed);
}

function keyMoneySentence(type: PropertyType, rent: number, keymoney: number): string {
  const months = Math.round(keymoney / rent);
  return months === 1
    ? "One month's rent as key money."
    : `${months} months' key money${type === "apartment" ? ", refundable when you leave" : ""}.`;
}

/** The first two areas of each campus are within walking distance; the rest are a bus ride away. */
const WALKABLE_AREAS = 2;

function words(rand: Random, place: Campus, gender: Gender, type: PropertyType): Words {
  const areaIndex = rand.int(0, place.place.areas.length - 1);
  const area = place.place.areas[areaIndex];
  const walk = areaIndex < WALKABLE_AREAS;
  const minutes = walk ? rand.pick([3, 5, 5, 7, 10, 10, 12, 15]) : rand.pick([10, 15, 15, 20, 25]);
  const bedrooms = rand.int(1, 3);
  return {
    who: gender === "female" ? "female student" : gender === "male" ? "male student" : "student",
    group: gender === "female" ? "girls" : gender === "male" ? "boys" : "students",
    hostel: gender === "female" ? "Girls' hostel" : gender === "male" ? "Boys' hostel" : "Student hostel",
    area,
    areaShort: area.split(",")[0],
    nick: place.place.nickname,
    landmark: place.place.landmark,
    distance: walk ? `${minutes} minutes walk` : `${minutes} minutes by bus`,
    shortDistance: walk ? `${minutes} min walk` : `${minutes} min by bus`,
    people: type === "apartment" ? Math.min(5, bedrooms + rand.int(1, 2)) : rand.int(2, 3),
    bedrooms,
  };
}

/** Google Maps links in the two shapes owners paste: a pin (coordinates) or a place search. */
function mapLink(rand: Random, place: Campus, area: string): string {
  if (rand.chance(0.7)) {
    const lat = (place.faculty.latitude + (rand.next() - 0.5) * 0.024).toFixed(4);
    const lng = (place.faculty.longitude + (rand.next() - 0.5) * 0.024).toFixed(4);
    return `https://maps.google.com/?q=${lat},${lng}`;
  }
  return `https://maps.google.com/?${new URLSearchParams({ q: area })}`;
}

export type GenerateOptions = { propertyType: PropertyType; gender: Gender; mapLinkChance?: number };

export function generateListing(rand: Random, place: Campus, options: GenerateOptions): GeneratedListing {
  const { propertyType: type, gender } = options;
  const w = words(rand, place, gender, type);
  const odds = AMENITY_ODDS[type];
  const amenities = AMENITIES.filter((a) => rand.chance(odds[a]));
  const title = rand.pick(TITLES[type])(w);
  // Titles promise what the description must then deliver.
  if (/furnished/i.test(title) && !amenities.includes("Furniture")) amenities.push("Furniture");
  if (/kitchen/i.test(title) && !amenities.includes("Kitchen")) amenities.push("Kitchen");
  const ordered = AMENITIES.filter((a) => amenities.includes(a));

  const rent = price(rand, type, place.faculty.cityCode, ordered.includes("AC"));
  const keymoneyFee = keyMoney(rand, type, rent);

  const opening = rand.pick(OPENINGS[type])(w);
  const sentences = [opening];
  if (/attached bathroom/i.test(title) || (type === "single" && rand.chance(0.5))) sentences.push("Attached bathroom.");
  if (/meals/i.test(title) || (type === "hostel" && rand.chance(0.4))) {
    sentences.push("Breakfast and dinner can be provided for an extra charge.");
  }
  // Two to four sentences in all: the opening, a feature or two, and a closing word.
  const used = sentences.length + (opening.match(/\. /g)?.length ?? 0);
  const features = rand.sample(ordered, Math.max(1, 3 - used)).map((a) => AMENITY_SENTENCES[a](type));
  sentences.push(...features);
  if (keymoneyFee) sentences.push(keyMoneySentence(type, rent, keymoneyFee));
  else if (used + features.length < 4) sentences.push(rand.pick(CLOSINGS));

  const linkChance = options.mapLinkChance ?? 0.35;
  const location = rand.chance(linkChance) ? mapLink(rand, place, w.area) : w.area;
  return {
    title,
    description: sentences.join(" "),
    price: rent,
    keymoneyFee,
    ...moveInTerms(type, rent, title),
    location,
    ...position(location, place, rent, title),
    exactPosition: false,
    whatsapp: false,
    viber: false,
    ...facts(type, gender, rent, sentences.join(" ")),
    university: place.university.name,
    faculty: place.faculty.name,
    city: place.faculty.cityCode,
    propertyType: type,
    gender,
    amenities: ordered,
  };
}
