import { createDatabase, type DB } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { encodeShingles, sketchText } from "~/lib/text-sketch";
import { findSimilarDescriptions } from "~/models/description-copies.server";
import { createRandom } from "~/seed/random";
import { COPY_EDITS, roomAdSentences } from "./room-ads";

/** Owners of the benchmark's sketches start so; none is a real account. */
const BENCH_OWNER = "bench-descriptions-";
/** Benchmark listing ids start here, far above any real ad number (the sketch tables have no foreign keys). */
const BENCH_LISTING_BASE = 500_000_000;
const BATCH = 250;
/** Stored ads kept to copy from. */
const SAMPLES = 1000;

/** The benchmark's ads, the same on every run: the sentences of ad `i` for i = 0, 1, … */
function* benchAds(): Generator<string[]> {
  const rand = createRandom(0xd35c);
  for (;;) yield roomAdSentences(rand);
}

/**
 * Makes sure the database holds `listings` benchmark listings' sketches (one
 * generated room ad each, each listing its own owner); adds what is missing.
 * Returns the sentences of some stored ads to copy.
 */
async function fillSketches(db: DB, listings: number, print: (line: string) => void): Promise<string[][]> {
  const row = await db
    .selectFrom("description_sketches")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("userId", "like", `${BENCH_OWNER}%`)
    .executeTakeFirstOrThrow();
  const have = Number(row.n);
  if (have < listings) print(`Adding ${(listings - have).toLocaleString("en-US")} description sketches...`);
  const ads = benchAds();
  const samples: string[][] = [];
  let index = 0;
  while (index < listings) {
    const size = Math.min(BATCH * 20, listings - index);
    const batch = Array.from({ length: size }, (_, i) => ({ id: index + i, sentences: ads.next().value as string[] }));
    index += size;
    for (const ad of batch) if (samples.length < SAMPLES && ad.id % 7 === 0) samples.push(ad.sentences);
    const missing = batch.filter((ad) => ad.id >= have);
    if (missing.length === 0) continue;
    const now = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      for (let at = 0; at < missing.length; at += BATCH) {
        const rows = missing.slice(at, at + BATCH).map((ad) => {
          const sketch = sketchText(ad.sentences.join(" "))!;
          return { listingId: BENCH_LISTING_BASE + ad.id, userId: `${BENCH_OWNER}${ad.id}`, sketch };
        });
        await trx
          .insertInto("description_sketches")
          .values(
            rows.map((r) => ({
              listingId: r.listingId,
              userId: r.userId,
              seeded: 0,
              shingles: encodeShingles(r.sketch.shingles),
              createdAt: now,
              removedAt: null,
            })),
          )
          .execute();
        await trx
          .insertInto("description_bands")
          .values(rows.flatMap((r) => r.sketch.bandKeys.map((key, band) => ({ key, band, listingId: r.listingId }))))
          .execute();
      }
    });
  }
  return samples;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];
}

/**
 * The near-duplicate description lookup at `listings` listings (ADR 079):
 * migrates and fills the database (scripts/search-shapes.ts
 * `--description-copies N`), then times `runs` lookups of a new owner's
 * description, one connection, as a post would: half of them are a copier's
 * edit of a stored ad (COPY_EDITS), half a new ad.
 */
export async function timeDescriptionLookups(
  target: { databaseUrl?: string; dataDir: string },
  options: { listings: number; runs: number },
  print: (line: string) => void = console.log,
): Promise<{ p50: number; p95: number; found: number; copies: number }> {
  const { db, destroy } = createDatabase({ ...target, poolSize: 1 });
  try {
    await migrateToLatest(db);
    const stored = await fillSketches(db, options.listings, print);
    const rand = createRandom(79);
    const samples: number[] = [];
    let found = 0;
    let copies = 0;
    for (let run = -5; run < options.runs; run++) {
      const copy = run % 2 === 0;
      const text = copy ? rand.pick(COPY_EDITS).apply(rand.pick(stored), rand) : roomAdSentences(rand).join(" ");
      const started = performance.now();
      const similar = await findSimilarDescriptions(db, "bench-new-owner", text);
      // The first few warm the caches and are not counted.
      if (run >= 0) {
        samples.push(performance.now() - started);
        if (copy) copies++;
        if (copy && similar.length > 0) found++;
      }
    }
    samples.sort((a, b) => a - b);
    return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), found, copies };
  } finally {
    await destroy();
  }
}
