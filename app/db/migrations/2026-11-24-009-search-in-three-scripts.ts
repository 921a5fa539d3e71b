import { type Kysely, PostgresAdapter, type RawBuilder, sql } from "kysely";

// Frozen migration. Full-text search over Sinhala and Tamil words (ADR 029).
//
// SQLite: FTS5's unicode61 tokenizer took only letters and digits (L*, N*,
// Co) as parts of a word, so every vowel sign and virama (Mn, Mc) of Sinhala
// and Tamil split a word into bare consonants: 'බෝඩිම' was indexed as 'බ',
// 'ඩ', 'ම'. With marks (M*) in the word it stays one word; remove_diacritics
// still folds Latin accents ('café' is 'cafe') and leaves Sinhala and Tamil
// signs alone, so 'මල' and 'මාල' stay different words.
//
// Both: the zero-width joiner (and non-joiner) that Sinhala writes inside
// conjuncts ('ශ්‍රී') split a word too, and people type the same word with
// or without it. The index drops both, as the query does
// (app/db/search.server.ts). SQLite's index is therefore no copy of the
// listing's columns: it is contentless (contentless_delete, SQLite 3.43+),
// filled only by the triggers below, and never 'rebuild'-ed from the table.
// PostgreSQL's index also reads the text in Unicode NFC (a vowel sign
// typed in two parts is one character); SQLite's cannot, so a search there
// looks for both spellings.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const COLUMNS = ["title", "description", "location", "university", "faculty"] as const;
const PREFIXES = "2 3 4 5 6 7 8 9 10";
const TRIGGERS = ["listings_fts_insert", "listings_fts_delete", "listings_fts_update"];

/** A listing column as the SQLite index reads it: joiners removed. */
function indexedSqlite(row: "new" | ""): string {
  return COLUMNS.map((column) => {
    const value = `coalesce(${row ? `${row}.` : ""}${column}, '')`;
    return `replace(replace(${value}, char(8205), ''), char(8204), '')`;
  }).join(", ");
}

/** The listing's text in one string, as migration 001 gave it to to_tsvector. */
const ALL_TEXT = sql`coalesce(title, '') || ' ' || coalesce(description, '') || ' ' || coalesce(location, '') || ' ' ||
  coalesce(university, '') || ' ' || coalesce(faculty, '')`;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await replaceSearchVector(
      db,
      sql`to_tsvector('simple'::regconfig, translate(normalize(${ALL_TEXT}, NFC), U&'\\200C\\200D', ''))`,
    );
    return;
  }
  await sql`drop table listings_fts`.execute(db);
  await sql`create virtual table listings_fts using fts5(
    title, description, location, university, faculty,
    content='', contentless_delete=1,
    tokenize='unicode61 remove_diacritics 2 categories ''L* N* Co M*''', prefix=${sql.lit(PREFIXES)})`.execute(db);
  await sql
    .raw(`insert into listings_fts(rowid, ${COLUMNS.join(", ")}) select id, ${indexedSqlite("")} from listings`)
    .execute(db);
  await replaceTriggers(db, {
    insert: `insert into listings_fts(rowid, ${COLUMNS.join(", ")}) values (new.id, ${indexedSqlite("new")});`,
    remove: "delete from listings_fts where rowid = old.id;",
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await replaceSearchVector(db, sql`to_tsvector('simple'::regconfig, ${ALL_TEXT})`);
    return;
  }
  // The external-content table of migration 006 and the triggers of migration 001.
  await sql`drop table listings_fts`.execute(db);
  await sql`create virtual table listings_fts using fts5(
    title, description, location, university, faculty,
    content='listings', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix=${sql.lit(PREFIXES)})`.execute(
    db,
  );
  await sql`insert into listings_fts(listings_fts) values ('rebuild')`.execute(db);
  const values = (row: "new" | "old") =>
    `${row}.id, ${row}.title, ${row}.description, coalesce(${row}.location, ''), ${row}.university, ${row}.faculty`;
  await replaceTriggers(db, {
    insert: `insert into listings_fts(rowid, ${COLUMNS.join(", ")}) values (${values("new")});`,
    remove: `insert into listings_fts(listings_fts, rowid, ${COLUMNS.join(", ")}) values ('delete', ${values("old")});`,
  });
}

/** PostgreSQL: the generated search column and its GIN index, made anew from another expression. */
async function replaceSearchVector(db: Kysely<any>, vector: RawBuilder<unknown>): Promise<void> {
  // Dropping the generated column drops its GIN index (listings_search_idx) too.
  await sql`alter table listings drop column "searchVector"`.execute(db);
  await sql`alter table listings add column "searchVector" tsvector generated always as (${vector}) stored`.execute(db);
  await sql`create index listings_search_idx on listings using gin ("searchVector")`.execute(db);
}

/** SQLite: the triggers that keep listings_fts in step with listings, from the statements that add and remove a row. */
async function replaceTriggers(db: Kysely<any>, { insert, remove }: { insert: string; remove: string }): Promise<void> {
  for (const trigger of TRIGGERS) await sql.raw(`drop trigger ${trigger}`).execute(db);
  await sql.raw(`create trigger listings_fts_insert after insert on listings begin ${insert} end`).execute(db);
  await sql.raw(`create trigger listings_fts_delete after delete on listings begin ${remove} end`).execute(db);
  await sql
    .raw(
      `create trigger listings_fts_update after update of ${COLUMNS.join(", ")} on listings begin ${remove} ${insert} end`,
    )
    .execute(db);
}
