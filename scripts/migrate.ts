// npm run migrate   brings the configured database (DATABASE_URL, else SQLite in DATA_DIR) to the
// latest schema, then exits. Run it once before starting a new version on several servers
// (README, "Running at scale"); a server also migrates at start-up, so one machine needs nothing.
import { withAppModules } from "./app-modules.ts";

try {
  await withAppModules(async (load) => {
    const { getEnv } = await load<typeof import("../app/env.server.ts")>("/app/env.server.ts");
    const { createDatabase } = await load<typeof import("../app/db/db.server.ts")>("/app/db/db.server.ts");
    const { migrateToLatest, appliedMigrations } =
      await load<typeof import("../app/db/migrate.server.ts")>("/app/db/migrate.server.ts");
    const env = getEnv();
    const { db, dialect, destroy } = createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir });
    try {
      const before = await appliedMigrations(db);
      await migrateToLatest(db);
      const after = await appliedMigrations(db);
      const added = after.filter((name) => !before.includes(name));
      console.log(
        added.length > 0
          ? `${dialect}: applied ${added.length} migration${added.length === 1 ? "" : "s"}: ${added.join(", ")}`
          : `${dialect}: already up to date (${after.at(-1) ?? "no migrations"})`,
      );
    } finally {
      await destroy();
    }
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
