import type { Kysely } from "kysely";

// Frozen migration (ADR 065): `location` becomes what the public sees, and the
// owner's map link or text as they gave it moves to `ownerLocation`, which only
// their edit form reads. Until now a listing whose owner did not choose 'Show
// the exact point' (ADR 052) still published the pasted link, and with it the
// point to the metre, in the API, on its page and to the location search.
//
// For those listings (`exactPosition` 0) a map link becomes a link to the
// position rounded to 3 decimals (about 100 m), or without a position the
// name the link searches for, if any; typed text loses its links, plus codes
// and what3words addresses, and has its coordinates rounded. The app writes
// both columns on every insert and edit (app/lib/geo/public-location.ts); the
// rules are copied here as they are today, as a frozen migration must. The
// search indexes follow `location` through their triggers and generated columns.

const BATCH = 500;

/** The map hosts the form accepted on 2026-11-28 (app/lib/location-link.ts). */
function isMapLink(value: string): boolean {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== "https:" && url.protocol !== "http:") return false;
    const host = url.hostname.toLowerCase();
    if (host === "google.com" || host === "www.google.com") return url.pathname.startsWith("/maps");
    return ["maps.google.com", "www.google.com", "maps.app.goo.gl", "goo.gl"].includes(host);
  } catch {
    return false;
  }
}

const round = (value: number) => String(Math.round(value * 1000) / 1000 + 0);

const LINK = /(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\/)[^\s()]*/gi;
const THREE_WORDS = /\/\/\/[\p{L}\p{M}]+\.[\p{L}\p{M}]+\.[\p{L}\p{M}]+/gu;
const PLUS_CODE = /\b[23456789CFGHJMPQRVWX]{4,8}\+[23456789CFGHJMPQRVWX]{0,3}(?![\w+])/g;
const DEGREES_MINUTES =
  /(\d{1,3})\s*°\s*(\d{1,2}(?:\.\d+)?)\s*['′]\s*(?:(\d{1,2}(?:\.\d+)?)\s*(?:"|″|''))?\s*([NSEWnsew])?/g;
const FINE_DECIMAL = /(?<![\d.])(\d{1,3})\.(\d{4,})(?![\d.])/g;

function publicText(text: string): string | null {
  const kept = text
    .replace(LINK, " ")
    .replace(THREE_WORDS, " ")
    .replace(PLUS_CODE, " ")
    .replace(DEGREES_MINUTES, (_match, degrees: string, minutes: string, seconds: string | undefined, hemisphere) => {
      const value = Number(degrees) + Number(minutes) / 60 + Number(seconds ?? 0) / 3600;
      return `${round(value)}${hemisphere ? String(hemisphere).toUpperCase() : ""}`;
    })
    .replace(FINE_DECIMAL, (match) => round(Number(match)))
    .replace(/\(\s*\)/g, " ")
    .replace(/\s+/g, " ")
    .replace(/\s+([,;.)])/g, "$1")
    .replace(/^[\s,;:–-]+|[\s,;:–-]+$/g, "");
  return kept === "" ? null : kept;
}

function placeNamed(link: string): string | null {
  const url = new URL(link);
  for (const name of ["q", "query", "destination", "daddr"]) {
    const value = url.searchParams.get(name)?.trim();
    if (value) return value;
  }
  const [kind, name] = url.pathname.split("/").filter(Boolean).slice(1);
  if ((kind === "place" || kind === "search") && name && !name.startsWith("@")) {
    try {
      return decodeURIComponent(name.replaceAll("+", " "));
    } catch {
      return null;
    }
  }
  return null;
}

type Row = { id: number; location: string; latitude: number | null; longitude: number | null };

function publicLocation(row: Row): string | null {
  const given = row.location.trim();
  if (!given) return null;
  if (!isMapLink(given)) return publicText(given);
  if (row.latitude !== null && row.longitude !== null)
    return `https://www.google.com/maps/search/?api=1&query=${round(row.latitude)},${round(row.longitude)}`;
  return publicText(placeNamed(given) ?? "");
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").addColumn("ownerLocation", "text").execute();
  await db
    .updateTable("listings")
    .set((eb) => ({ ownerLocation: eb.ref("location") }))
    .where("location", "is not", null)
    .execute();
  // Only text with a dot, a slash, a plus or a degree sign can hold a link or a coordinate.
  for (let after = 0; ; ) {
    const rows: Row[] = await db
      .selectFrom("listings")
      .select(["id", "location", "latitude", "longitude"])
      .where("exactPosition", "=", 0)
      .where("location", "is not", null)
      .where((eb) => eb.or(["%.%", "%/%", "%+%", "%°%"].map((pattern) => eb("location", "like", pattern))))
      .where("id", ">", after)
      .orderBy("id")
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      const location = publicLocation(row);
      if (location !== row.location)
        await db.updateTable("listings").set({ location }).where("id", "=", row.id).execute();
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1].id;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .updateTable("listings")
    .set((eb) => ({ location: eb.ref("ownerLocation") }))
    .where("ownerLocation", "is not", null)
    .execute();
  await db.schema.alterTable("listings").dropColumn("ownerLocation").execute();
}
