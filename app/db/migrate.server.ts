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

/** The names of the migrations this database has applied, in order (none for a new database). */
export async function appliedMigrations(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const all = await migrator.getMigrations();
  return all.filter((m) => m.executedAt !== undefined).map((m) => m.name);
}
