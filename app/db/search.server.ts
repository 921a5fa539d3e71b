import { type Expression, type Kysely, PostgresAdapter, type RawBuilder, type SqlBool, sql } from "kysely";

/**
 * Full-text search, the one place that knows each dialect's syntax
 * (SQLite FTS5, PostgreSQL tsvector). Words are matched as prefixes, so
 * 'morat' finds 'Moratuwa'; every word must match.
 */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Splits free text into safe search terms (letters and digits only). */
export function searchTerms(text: string): string[] {
  return (text.toLowerCase().normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}

export type TextSearch = {
  /** A boolean condition on the `listings` table. */
  where: Expression<SqlBool>;
  /**
   * The matching listings with their relevance (larger is better), as a
   * subquery of (id, rank) to join: scoring each match once, not once per row.
   */
  ranked: RawBuilder<{ id: number; rank: number }>;
};

export function textSearch(db: Kysely<any>, text: string): TextSearch | null {
  const terms = searchTerms(text);
  if (terms.length === 0) return null;
  if (isPostgres(db)) {
    const query = terms.map((t) => `${t}:*`).join(" & ");
    const tsq = sql`to_tsquery('simple', ${query})`;
    return {
      where: sql<SqlBool>`listings."searchVector" @@ ${tsq}`,
      ranked: sql`(select id, ts_rank("searchVector", ${tsq}) as rank from listings where "searchVector" @@ ${tsq})`,
    };
  }
  // FTS5: each term quoted (so no operator can be injected) and marked as a prefix.
  const match = terms.map((t) => `"${t}"*`).join(" ");
  return {
    where: sql<SqlBool>`listings.id in (select rowid from listings_fts where listings_fts match ${match})`,
    ranked: sql`(select rowid as id, -bm25(listings_fts) as rank from listings_fts where listings_fts match ${match})`,
  };
}

/** Case-insensitive "contains" on both dialects, with LIKE wildcards escaped. */
export function containsInsensitive(column: Expression<unknown>, needle: string): Expression<SqlBool> {
  const escaped = needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`lower(${column}) like ${`%${escaped}%`} escape '\\'`;
}
