import { sql } from "kysely";
import type { DB } from "./db.server";
import { isPostgres } from "./search.server";

type IndexDefinition = { name: string; definition: string };

/**
 * Where set-aside index definitions wait until they are built again (migration
 * 012). A load that dies (a killed seed) leaves them here, and the next
 * start-up builds them (`rebuildSetAsideIndexes`, after the migrations), so no
 * index is lost.
 */
const SET_ASIDE = "bulk_load_set_aside_indexes";

/**
 * A table's secondary indexes (not unique, not the primary key), each with the
 * statement that built it, as the database itself keeps it.
 */
async function secondaryIndexes(db: DB, table: string): Promise<IndexDefinition[]> {
  if (isPostgres(db)) {
    const { rows } = await sql<IndexDefinition>`
      select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
      from pg_index i
      join pg_class c on c.oid = i.indexrelid
      join pg_class t on t.oid = i.indrelid
      where t.relname = ${table} and t.relnamespace = to_regnamespace(current_schema())
        and not i.indisunique and not i.indisprimary`.execute(db);
    return rows;
  }
  const { rows } = await sql<IndexDefinition>`
    select name, sql as definition from sqlite_master
    where type = 'index' and tbl_name = ${table} and sql is not null and upper(sql) not like 'CREATE UNIQUE%'`.execute(
    db,
  );
  return rows;
}

/** Builds every index a bulk load set aside and has not built again (an interrupted load); how many. */
export async function rebuildSetAsideIndexes(db: DB): Promise<number> {
  const { rows } = await sql<IndexDefinition>`select name, definition from ${sql.table(SET_ASIDE)}`.execute(db);
  for (const { name, definition } of rows) {
    await db.transaction().execute(async (trx) => {
      await sql.raw(definition).execute(trx);
      await sql`delete from ${sql.table(SET_ASIDE)} where name = ${name}`.execute(trx);
    });
  }
  return rows.length;
}

/**
 * Runs a bulk load into `table` with its secondary indexes set aside, then
 * builds them again from their own definitions: one sorted build per index
 * instead of a B-tree insert per row and index (the synthetic seed at 1,000,000
 * listings, README). Unique indexes and the primary key stay, so the load
 * still sees its conflicts. Meant for a database nobody is using: during the
 * load, queries on the table have only those indexes.
 */
export async function withSecondaryIndexesSetAside<T>(db: DB, table: string, load: () => Promise<T>): Promise<T> {
  await rebuildSetAsideIndexes(db);
  const indexes = await secondaryIndexes(db, table);
  for (const { name, definition } of indexes) {
    await db.transaction().execute(async (trx) => {
      await sql`insert into ${sql.table(SET_ASIDE)} (name, definition) values (${name}, ${definition})`.execute(trx);
      await sql`drop index ${sql.id(name)}`.execute(trx);
    });
  }
  try {
    return await load();
  } finally {
    await rebuildSetAsideIndexes(db);
  }
}
