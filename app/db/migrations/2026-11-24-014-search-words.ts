import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration (ADR 046): PostgreSQL's list of every word its
// full-text index has seen, so a search for a prefix ('furn') can ask the
// index for the exact words that start with it ('furnished', 'furniture')
// instead of a partial match, which gathers every posting of every such word
// before the newest can be picked (110-255 ms at 1,000,000 listings).
//
// The list only grows: a word whose last listing went away stays, and a
// search for it finds nothing, which is still the right answer. Triggers add
// the words of inserted listings (once per statement, so a bulk load adds
// each word once) and of listings whose text changed. SQLite's FTS5 keeps
// prefix indexes of its own (migration 006) and needs none of this.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // "C" collation: words sort by their bytes, so the words starting with a
  // prefix are one range of the primary key.
  await sql`create table search_words (word text collate "C" primary key)`.execute(db);
  await sql`insert into search_words (word)
    select word from ts_stat('select "searchVector" from listings') order by 1`.execute(db);
  // Sorted, so two listings written at once take their new words' locks in one order.
  await sql`create function search_words_add() returns trigger language plpgsql as $$
    begin
      insert into search_words (word)
        select distinct lexeme from changed, unnest(tsvector_to_array(changed."searchVector")) as lexeme
        order by 1
        on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`create trigger search_words_on_insert after insert on listings
    referencing new table as changed for each statement execute function search_words_add()`.execute(db);
  // A row trigger, as a statement trigger with a transition table cannot name
  // columns: only a write to the listing's text runs it, never a view count.
  await sql`create function search_words_add_one() returns trigger language plpgsql as $$
    begin
      insert into search_words (word)
        select distinct lexeme from unnest(tsvector_to_array(new."searchVector")) as lexeme
        order by 1
        on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`create trigger search_words_on_update
    after update of title, description, location, university, faculty on listings
    for each row when (old."searchVector" is distinct from new."searchVector")
    execute function search_words_add_one()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger search_words_on_update on listings`.execute(db);
  await sql`drop trigger search_words_on_insert on listings`.execute(db);
  await sql`drop function search_words_add_one()`.execute(db);
  await sql`drop function search_words_add()`.execute(db);
  await sql`drop table search_words`.execute(db);
}
