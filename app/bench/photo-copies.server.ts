import { createDatabase, type DB } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { findCopiedPhotos, fingerprintRow } from "~/models/photo-copies.server";
import type { PhotoFingerprint } from "~/models/photo-fingerprint.server";
import { createRandom, type Random } from "~/seed/random";

/** Owners of the benchmark's fingerprints start so; none is a real account. */
const BENCH_OWNER = "bench-copies-";
const PHOTOS_PER_LISTING = 3;
const BATCH = 500;

function randomHash(rand: Random): string {
  let hex = "";
  for (let i = 0; i < 16; i++) hex += rand.int(0, 15).toString(16);
  return hex;
}

/** `hash` with `bits` random bits flipped (a copy's hash). */
function nearby(rand: Random, hash: string, bits: number): string {
  const digits = hash.split("").map((d) => Number.parseInt(d, 16));
  for (const bit of rand.sample(
    Array.from({ length: 64 }, (_, i) => i),
    bits,
  )) {
    digits[bit >> 2] ^= 8 >> (bit & 3);
  }
  return digits.map((d) => d.toString(16)).join("");
}

function fingerprint(rand: Random, hash = randomHash(rand)): PhotoFingerprint {
  return { hash, mirrored: randomHash(rand), exact: randomHash(rand) };
}

/**
 * Makes sure the database holds `listings` listings' worth of benchmark
 * fingerprints (3 photos each, random hashes, each listing its own owner);
 * adds what is missing. Returns some stored hashes to copy.
 */
async function fillFingerprints(db: DB, listings: number, print: (line: string) => void): Promise<string[]> {
  const rand = createRandom(0xc0b1e5);
  const wanted = listings * PHOTOS_PER_LISTING;
  const row = await db
    .selectFrom("photo_fingerprints")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("userId", "like", `${BENCH_OWNER}%`)
    .executeTakeFirstOrThrow();
  let have = Number(row.n);
  if (have < wanted) print(`Adding ${(wanted - have).toLocaleString("en-US")} fingerprints...`);
  const now = new Date();
  while (have < wanted) {
    const size = Math.min(BATCH * 10, wanted - have);
    await db.transaction().execute(async (trx) => {
      for (let done = 0; done < size; done += BATCH) {
        const rows = Array.from({ length: Math.min(BATCH, size - done) }, (_, i) => {
          const n = have + done + i;
          const listingId = Math.floor(n / PHOTOS_PER_LISTING) + 1;
          return fingerprintRow({
            photoId: `${BENCH_OWNER}${n}`,
            listingId,
            userId: `${BENCH_OWNER}${listingId}`,
            fingerprint: fingerprint(rand),
            now,
          });
        });
        await trx.insertInto("photo_fingerprints").values(rows).execute();
      }
    });
    have += size;
  }
  const sample = await db
    .selectFrom("photo_fingerprints")
    .select("hash")
    .where("userId", "like", `${BENCH_OWNER}%`)
    .limit(1000)
    .execute();
  return sample.map((r) => r.hash);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];
}

/**
 * The copied-photo lookup at `listings` listings (ADR 074): migrates and fills
 * the database (scripts/search-shapes.ts `--photo-copies N`), then times `runs`
 * lookups of a new listing's 3 photos by a new owner, one connection, as a
 * post would: half of them carry a copy of a stored photo (0-10 bits changed).
 */
export async function timeCopyLookups(
  target: { databaseUrl?: string; dataDir: string },
  options: { listings: number; runs: number },
  print: (line: string) => void = console.log,
): Promise<{ fingerprints: number; p50: number; p95: number; found: number }> {
  const { db, destroy } = createDatabase({ ...target, poolSize: 1 });
  try {
    await migrateToLatest(db);
    const stored = await fillFingerprints(db, options.listings, print);
    const rand = createRandom(7);
    const samples: number[] = [];
    let found = 0;
    for (let run = -5; run < options.runs; run++) {
      const photos = Array.from({ length: PHOTOS_PER_LISTING }, () => fingerprint(rand));
      if (run % 2 === 0) photos[0] = fingerprint(rand, nearby(rand, rand.pick(stored), rand.int(0, 10)));
      const started = performance.now();
      const copies = await findCopiedPhotos(db, "bench-new-owner", photos);
      // The first few warm the caches and are not counted.
      if (run >= 0) {
        samples.push(performance.now() - started);
        if (copies.length > 0) found++;
      }
    }
    samples.sort((a, b) => a - b);
    const fingerprints = options.listings * PHOTOS_PER_LISTING;
    return { fingerprints, p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), found };
  } finally {
    await destroy();
  }
}
