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
  // No building of what an earlier load left here first: the migrations did that at start-up, and
  // inside another set-aside load (the seed nests one per table) it would build that load's
  // indexes again before a single row went in (ADR 096).
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

/**
 * SQLite's full-text indexes of listings (the words, and the locations'
 * trigrams) are filled by one trigger each on insert. Row by row they were
 * most of a large seed's time: 25 of its 32 s of SQLite work at 50,000
 * listings, as the words index keeps every word under nine prefix lengths too
 * and writes its new terms out at each commit. One statement per index after
 * the load reads the rows once instead (ADR 096).
 */
const SEARCH_TRIGGERS = ["listings_fts_insert", "listings_location_fts_insert"];

/**
 * The statement that does for every listing numbered above `after` what the
 * insert trigger `definition` does for one: its single INSERT … VALUES (new.…)
 * as an INSERT … SELECT. Null for a trigger of another shape, which then stays.
 */
export function fillStatementOf(definition: string, after: number): string | null {
  const found = /\bbegin\s+(insert\s+into\s+[^(]+\([^)]*\))\s*values\s*\(([\s\S]*)\)\s*;\s*end\s*$/i.exec(definition);
  if (!found) return null;
  const [, into, values] = found;
  return `${into} select ${values.replace(/\bnew\./g, "listings.")} from listings where listings.id > ${after}`;
}

/**
 * Runs a bulk load of listings with SQLite's full-text insert triggers set
 * aside, then fills those indexes for the new rows in one statement each and
 * puts the triggers back. Like the indexes, what is set aside is written down
 * first (the fill, then the trigger), so a load that dies is completed by the
 * next start-up (`rebuildSetAsideIndexes`). PostgreSQL keeps its triggers: its
 * word index is a column of the row. Meant for a database nobody is writing to.
 */
export async function withListingSearchSetAside<T>(db: DB, load: () => Promise<T>): Promise<T> {
  if (isPostgres(db)) return load();
  const { rows: triggers } = await sql<IndexDefinition>`
    select name, sql as definition from sqlite_master where type = 'trigger' and tbl_name = 'listings'`.execute(db);
  const newest = await db
    .selectFrom("listings")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  const after = Number(newest?.id ?? 0);
  for (const { name, definition } of triggers) {
    const fill = SEARCH_TRIGGERS.includes(name) ? fillStatementOf(definition, after) : null;
    if (!fill) continue;
    await db.transaction().execute(async (trx) => {
      // In either order: nothing else writes listings until both have run.
      await sql`insert into ${sql.table(SET_ASIDE)} (name, definition) values (${`${name}:fill`}, ${fill}), (${name}, ${definition})`.execute(
        trx,
      );
      await sql`drop trigger ${sql.id(name)}`.execute(trx);
    });
  }
  try {
    return await load();
  } finally {
    await rebuildSetAsideIndexes(db);
  }
}
