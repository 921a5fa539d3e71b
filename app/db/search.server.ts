import {
  type Expression,
  type Kysely,
  PostgresAdapter,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from "kysely";

/**
 * Full-text and location search, the one place that knows each dialect's
 * syntax (SQLite FTS5, PostgreSQL tsvector and pg_trgm). Words are matched
 * as prefixes, so 'morat' finds 'Moratuwa'; every word must match.
 */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The zero-width joiner and non-joiner: Sinhala writes the joiner inside
 * conjuncts ('ශ්‍රී'), and people type the same word with or without it.
 * The full-text indexes leave both out (migration 009, ADR 029), and so do the terms.
 */
const JOINERS = /[\u200c\u200d]/g;

/**
 * A word: a letter or digit, then letters, digits and marks. The marks are
 * Sinhala and Tamil vowel signs and viramas (a word without them would be
 * bare consonants: 'බෝඩිම' is not 'බ ඩ ම') and Latin accents typed apart.
 */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

/** The words of a text as the full-text indexes see them, lowercased and in Unicode NFKC. */
export function searchWords(text: string): string[] {
  return text.toLowerCase().normalize("NFKC").replace(JOINERS, "").match(WORD) ?? [];
}

/** Splits free text into safe search terms (words only: no operator can be injected). */
export function searchTerms(text: string): string[] {
  return searchWords(text).slice(0, 8);
}

/**
 * A term as listing text may spell it: as given (NFKC: vowel signs whole) and,
 * where it differs, with vowel signs in their parts (NFD), as some Sinhala and
 * Tamil keyboards type them ('ො' as 'ෙ' + 'ා'). Listings keep their text
 * exactly as typed; PostgreSQL's index reads it in NFC, SQLite's as it is.
 */
function spellings(term: string): string[] {
  const parts = term.normalize("NFD");
  return parts === term ? [term] : [term, parts];
}

/** The title as the terms are compared with it: without joiners when a term may have had one. */
function scoredTitle(terms: string[]): Expression<string> {
  const title = sql.ref<string>("listings.title");
  if (terms.every((t) => /^[\x20-\x7e]*$/.test(t))) return title;
  return sql<string>`replace(replace(${title}, ${"\u200d"}, ''), ${"\u200c"}, '')`;
}

export type TextSearch = {
  /**
   * Restricts a query on `listings` to the matches, driven by the full-text
   * index, so a LIMIT stops the scan early even when most listings match
   * (SQLite would otherwise collect every matching id before the first row).
   */
  restrict: <Q extends SelectQueryBuilder<any, any, any>>(query: Q) => Q;
  /**
   * PostgreSQL only: the same restriction checked on each row read, which no
   * index can answer, so walking the newest ads stops at the matches wanted
   * instead of the index first gathering every match (ADR 046). Null on SQLite,
   * whose index reads its matches newest first by itself.
   */
  checkEachRow: (<Q extends SelectQueryBuilder<any, any, any>>(query: Q) => Q) | null;
  /** The matches' ad numbers, in the full-text index's own order (ADR 011). */
  newestFirst: Expression<number>;
  /**
   * How many of the words the title contains: the relevance score (ADR 011).
   * Computed per row with no corpus statistics, so it costs the same for a
   * word in every listing as for a rare one, and is the same on both databases.
   */
  titleScore: RawBuilder<number>;
};

/**
 * Words that the matches' university or faculty, columns the full-text index
 * also holds, are known to contain (the caller checks the equality itself).
 * SQLite adds them to the MATCH: FTS5 then skips the other listings itself
 * instead of handing each to the join (a search within one university read
 * 300,000 rows to find 10,000 at 1,000,000 listings). PostgreSQL combines
 * the search and the filter indexes on its own.
 */
export type Within = { university?: string; faculty?: string };

export async function textSearch(db: Kysely<any>, text: string, within: Within = {}): Promise<TextSearch | null> {
  const terms = searchTerms(text);
  if (terms.length === 0) return null;
  const title = scoredTitle(terms);
  const titleScore = sql<number>`(${sql.join(
    terms.map(
      (t) =>
        sql`case when ${sql.join(
          spellings(t).map((spelling) => containsInsensitive(title, spelling)),
          sql` or `,
        )} then 1 else 0 end`,
    ),
    sql` + `,
  )})`;
  if (isPostgres(db)) {
    const query = await postgresQuery(db, terms);
    const matches = sql<SqlBool>`listings."searchVector" @@ ${query}`;
    // The operator's own function: the planner matches operators, not calls, to indexes.
    const checked = sql<SqlBool>`ts_match_vq(listings."searchVector", ${query})`;
    return {
      restrict: (q) => q.where(matches) as typeof q,
      checkEachRow: (q) => q.where(checked) as typeof q,
      newestFirst: sql.ref("listings.id"),
      titleScore,
    };
  }
  const columnWords = Object.entries(within).flatMap(([column, value]) =>
    searchWords(value ?? "").map((word) => `${column} : "${word}"`),
  );
  // FTS5: each term quoted (so no operator can be injected) and marked as a prefix.
  const prefixes = terms.map((t) => {
    const each = spellings(t).map((spelling) => `"${spelling}"*`);
    return each.length === 1 ? each[0] : `(${each.join(" OR ")})`;
  });
  // An explicit AND: FTS5 allows no implicit one after a parenthesised OR.
  const match = [...prefixes, ...columnWords].join(" AND ");
  return {
    restrict: (q) =>
      q
        .innerJoin("listings_fts", (join) => join.on(sql<SqlBool>`listings_fts.rowid = listings.id`))
        .where(sql<SqlBool>`listings_fts match ${match}`) as typeof q,
    checkEachRow: null,
    newestFirst: sql.ref("listings_fts.rowid"),
    titleScore,
  };
}

/** PostgreSQL: a prefix stands for at most this many exact words; one that starts more is matched as a prefix. */
const MOST_WORDS_PER_PREFIX = 32;

/**
 * PostgreSQL's query for the terms: each prefix as the exact words that start
 * with it, from the list of every word the index has seen (migration 014,
 * ADR 046). A partial match ('furn:*') gathers every posting of every such
 * word before the index can intersect the terms (110-255 ms for 'furn sing'
 * at 1,000,000 listings); exact words are intersected as they are read
 * (20 ms). A prefix of no known word, or of too many, stays a prefix.
 */
async function postgresQuery(db: Kysely<any>, terms: string[]): Promise<RawBuilder<unknown>> {
  const { rows } = await sql<{ term: string; word: string }>`
    select t.term, w.word from unnest(${terms}::text[]) as t(term)
    cross join lateral (
      select word from search_words where word >= t.term and word < t.term || chr(1114111)
      order by word limit ${MOST_WORDS_PER_PREFIX + 1}
    ) as w`.execute(db);
  const words = Map.groupBy(rows, (row) => row.term);
  const exact: string[] = [];
  const prefixes: string[] = [];
  for (const term of new Set(terms)) {
    const starting = words.get(term) ?? [];
    if (starting.length === 0 || starting.length > MOST_WORDS_PER_PREFIX) prefixes.push(`${term}:*`);
    else exact.push(`(${starting.map((row) => lexeme(row.word)).join(" | ")})`);
  }
  const spelledOut = sql`${exact.join(" & ")}::tsquery`;
  const parsed = sql`to_tsquery('simple', ${prefixes.join(" & ")})`;
  if (prefixes.length === 0) return spelledOut;
  return exact.length === 0 ? parsed : sql`(${parsed} && ${spelledOut})`;
}

/** A word as tsquery input spells it: quoted, with quotes and backslashes doubled. */
function lexeme(word: string): string {
  return `'${word.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/** Needles shorter than a trigram cannot use the trigram indexes; they scan. */
const TRIGRAM = 3;

/**
 * Case-insensitive "contains" on the location text. Three characters or more
 * are answered from a trigram index (migration 006): FTS5's trigram tokenizer
 * on SQLite, pg_trgm on PostgreSQL.
 */
export function locationContains(db: Kysely<any>, needle: string): Expression<SqlBool> {
  const plain = containsInsensitive(sql.ref("listings.location"), needle);
  if (isPostgres(db) || [...needle].length < TRIGRAM) return plain;
  return sql<SqlBool>`listings.id in (select rowid from listings_location_fts where listings_location_fts match ${trigramPhrase(needle)})`;
}

/** A quoted phrase of trigrams is a substring match; '"' is escaped by doubling. */
function trigramPhrase(needle: string): string {
  return `"${needle.replaceAll('"', '""')}"`;
}

/**
 * Restricts a query on `listings` to those whose location contains the
 * needle, driven by SQLite's trigram index so a LIMIT stops it early (like
 * TextSearch.restrict). Null where there is no such index to drive from:
 * PostgreSQL, whose planner stops early by itself, or a needle too short.
 */
export function locationRestriction(
  db: Kysely<any>,
  needle: string,
): (<Q extends SelectQueryBuilder<any, any, any>>(query: Q) => Q) | null {
  if (isPostgres(db) || [...needle].length < TRIGRAM) return null;
  return (q) =>
    q
      .innerJoin("listings_location_fts", (join) => join.on(sql<SqlBool>`listings_location_fts.rowid = listings.id`))
      .where(sql<SqlBool>`listings_location_fts match ${trigramPhrase(needle)}`) as typeof q;
}

/** Case-insensitive "contains" on both dialects, with LIKE wildcards escaped. */
export function containsInsensitive(column: Expression<unknown>, needle: string): Expression<SqlBool> {
  const escaped = needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`lower(${column}) like ${`%${escaped}%`} escape '\\'`;
}

/**
 * The column as a plain value: SQLite then checks the condition on each row
 * it reads instead of choosing an index for it. SQLite's planner, even with
 * full statistics, takes `expiresAt > now` (true for nearly every listing) or
 * a filter as the index to drive from, then reads a table row per listing and
 * sorts them all, where walking the order's own index would stop after one
 * page (ADR 011). PostgreSQL plans from its statistics and gets the column as is.
 */
export function notIndexed<T>(db: Kysely<any>, column: Expression<T>): Expression<T> {
  return isPostgres(db) ? column : sql<T>`+${column}`;
}
