import { sql } from "kysely";
import { invalidatePublicPages } from "~/cache/invalidation.server";
import { createDatabase } from "~/db/db.server";
import { refreshStatistics } from "~/db/maintenance.server";
import { migrateToLatest } from "~/db/migrate.server";
import { getEnv } from "~/env.server";
import { photoStorageFor } from "~/storage/storage.server";
import { seedSynthetic } from "./synthetic.server";

const count = new Intl.NumberFormat("en-US");

function seconds(started: number): string {
  return `${((performance.now() - started) / 1000).toFixed(1)} s`;
}

/**
 * `npm run seed -- --listings N`: the same configuration as the server
 * (DATA_DIR, DATABASE_URL), migrations first, then N synthetic listings.
 */
export async function runSeedCommand(listings: number, print: (line: string) => void): Promise<void> {
  const started = performance.now();
  const env = getEnv();
  const { db, dialect, destroy } = createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir });
  try {
    await migrateToLatest(db);
    // SQLite's default page cache (2 MB) is far smaller than the indexes of
    // 100,000 listings; a larger one halves the time of a big seed.
    if (dialect === "sqlite") await sql`pragma cache_size = -1048576`.execute(db);
    // The same folder the server reads photos from (app/services.server.ts).
    const storage = photoStorageFor(env);
    print(
      `Adding ${count.format(listings)} synthetic listings to ${dialect === "postgres" ? "PostgreSQL" : `SQLite in ${env.dataDir}`}...`,
    );
    let lastReport = 0;
    const added = await seedSynthetic(db, storage, {
      count: listings,
      onProgress(done) {
        if (done === listings || performance.now() - lastReport > 2_000) {
          lastReport = performance.now();
          print(`  ${count.format(done)} / ${count.format(listings)} (${seconds(started)})`);
        }
      },
    });
    // A running server shows the new listings within a second (ADR 012).
    await invalidatePublicPages(db, "all");
    print(`Refreshing the database's statistics...`);
    await refreshStatistics(db);
    print(`Done: ${count.format(added)} listings added in ${seconds(started)}.`);
  } finally {
    await destroy();
  }
}
