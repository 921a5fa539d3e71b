import { type Kysely, sql } from "kysely";

// Frozen migration (ADR 051): the facts students ask first. Every
// listing already there gets null in each, 'not stated', never a guessed value.
// Texts: bills included | meter | shared; meals none | available | included;
// bathroom attached | shared; curfew none | 'HH:MM'; visitors and cooking
// allowed | not_allowed. Beds (free, in all) only for shared rooms and hostels.
const TEXTS = ["bills", "meals", "bathroom", "curfew", "visitors", "cooking"] as const;
const COUNTS = ["bedsFree", "bedsTotal"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of TEXTS) await db.schema.alterTable("listings").addColumn(column, "text").execute();
  for (const column of COUNTS) await db.schema.alterTable("listings").addColumn(column, "integer").execute();
  // The fact filters' counts read index entries only; a filter on a later
  // column checks it on each entry (they are common, so the bound comes soon).
  await sql`create index listings_facts_idx on listings
    (status, bills, meals, bathroom, cooking, visitors, curfew, "bedsFree", "expiresAt")`.execute(db);
  // With a university (what most students choose first), the same checks run
  // on the entries of that university alone: '3 beds free' near Peradeniya
  // read 50,000 rows at 1,000,000 listings without it.
  await sql`create index listings_university_facts_idx on listings
    (university, status, bills, meals, bathroom, cooking, visitors, curfew, "bedsFree", "expiresAt")`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index listings_university_facts_idx`.execute(db);
  await sql`drop index listings_facts_idx`.execute(db);
  for (const column of [...COUNTS, ...TEXTS].reverse())
    await db.schema.alterTable("listings").dropColumn(column).execute();
}
