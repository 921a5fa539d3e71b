import type { DB } from "~/db/db.server";

/** Runs `work` in a transaction; inside a caller's transaction it uses that one (Kysely cannot nest them). */
export async function inTransaction<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
