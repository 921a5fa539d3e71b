import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration (ADR 127): listings counted per status, kept by triggers, so that the site's
// figure "N listings" reads a row instead of counting every public listing after each write
// (29-38 ms at 100,000 listings on PostgreSQL, about 300 ms at 1,000,000; ADR 096's memo forgets
// it on every write, and each worker counts again). Active listings past their expiry that the
// expiry job has not marked yet are few; a partial index of active listings by expiry finds them.
//
// PostgreSQL counts once per statement from its transition tables: a row trigger would update the
// same counter row once per listing of a statement, and each update inside one transaction walks
// every earlier version of that row (a seed's batches, the expiry job's sweeps). Its update trigger
// cannot be limited to `status` (transition tables take no column list), so it writes only when a
// listing's status changed. SQLite has only row triggers; a row there is updated in place.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("listing_status_counts")
    .addColumn("status", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull())
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) await postgresTriggers(db);
  else await sqliteTriggers(db);
  await sql`insert into listing_status_counts (status, count)
    select status, count(*) from listings group by status`.execute(db);
  await sql`create index listings_active_expiry_idx on listings ("expiresAt") where status = 'active'`.execute(db);
}

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  const add = sql`insert into listing_status_counts (status, count) values (new.status, 1)
      on conflict (status) do update set count = count + 1;`;
  const remove = sql`update listing_status_counts set count = count - 1 where status = old.status;`;
  await sql`create trigger listing_status_counts_insert after insert on listings begin ${add} end`.execute(db);
  await sql`create trigger listing_status_counts_delete after delete on listings begin ${remove} end`.execute(db);
  await sql`create trigger listing_status_counts_update after update of status on listings
    when old.status is not new.status begin ${remove} ${add} end`.execute(db);
}

async function postgresTriggers(db: Kysely<any>): Promise<void> {
  await sql`create function listing_status_counts_add() returns trigger language plpgsql as $$
    begin
      insert into listing_status_counts (status, count)
        select status, count(*) from new_rows group by status
        on conflict (status) do update set count = listing_status_counts.count + excluded.count;
      return null;
    end $$`.execute(db);
  await sql`create function listing_status_counts_remove() returns trigger language plpgsql as $$
    begin
      update listing_status_counts c set count = c.count - gone.n
        from (select status, count(*) as n from old_rows group by status) gone
        where c.status = gone.status;
      return null;
    end $$`.execute(db);
  await sql`create function listing_status_counts_move() returns trigger language plpgsql as $$
    begin
      with moved as (
        select o.status as was, n.status as now from old_rows o join new_rows n on n.id = o.id
        where o.status is distinct from n.status
      ), deltas as (
        select was as status, -count(*) as n from moved group by was
        union all select now, count(*) from moved group by now
      )
      insert into listing_status_counts (status, count)
        select status, sum(n) from deltas group by status
        on conflict (status) do update set count = listing_status_counts.count + excluded.count;
      return null;
    end $$`.execute(db);
  await sql`create trigger listing_status_counts_insert after insert on listings
    referencing new table as new_rows for each statement execute function listing_status_counts_add()`.execute(db);
  await sql`create trigger listing_status_counts_delete after delete on listings
    referencing old table as old_rows for each statement execute function listing_status_counts_remove()`.execute(db);
  await sql`create trigger listing_status_counts_update after update on listings
    referencing old table as old_rows new table as new_rows
    for each statement execute function listing_status_counts_move()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index listings_active_expiry_idx`.execute(db);
  for (const trigger of ["insert", "delete", "update"])
    await sql`drop trigger ${sql.raw(`listing_status_counts_${trigger}`)}${sql.raw(
      db.getExecutor().adapter instanceof PostgresAdapter ? " on listings" : "",
    )}`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    for (const fn of ["add", "remove", "move"])
      await sql`drop function ${sql.raw(`listing_status_counts_${fn}`)}`.execute(db);
  await db.schema.dropTable("listing_status_counts").execute();
}
