import { type MigrationProvider, Migrator } from "kysely/migration";
import { rebuildSetAsideIndexes } from "./bulk-load.server";
import type { DB } from "./db.server";
import { migrations } from "./migrations";

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: DB): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`Migration failed${failed ? ` at ${failed.migrationName}` : ""}: ${String(error)}`);
  }
  // Indexes a bulk load set aside and could not build again (it was killed) are built now.
  await rebuildSetAsideIndexes(db);
}
