import type { Kysely } from "kysely";

// Frozen migration (ADR 028: models speak in keys, never sentences).
// A listing hidden by reports (hiddenBy 'reports') and its "listing.auto-hide" audit
// entry stored an English sentence as the reason. They now store the message key and
// its values as JSON, shown in the reader's language:
//   {"key":"report.autoHide.reason","values":{"count":3}}
// Rows whose text is not that sentence (none are known) stay as they are and are
// shown as written. Reasons typed by moderators are people's words and never change.
const KEY = "report.autoHide.reason";
const ENGLISH = /^Hidden automatically after reports from (\d+) (?:person|people), until a moderator reviews it\.$/;

function toKey(reason: string | null): string | null {
  const match = reason ? ENGLISH.exec(reason) : null;
  return match ? JSON.stringify({ key: KEY, values: { count: Number(match[1]) } }) : null;
}

function toEnglish(reason: string | null): string | null {
  if (!reason?.startsWith("{")) return null;
  try {
    const stored = JSON.parse(reason) as { key?: unknown; values?: { count?: unknown } };
    if (stored.key !== KEY || typeof stored.values?.count !== "number") return null;
    const count = stored.values.count;
    return `Hidden automatically after reports from ${count} ${count === 1 ? "person" : "people"}, until a moderator reviews it.`;
  } catch {
    return null;
  }
}

/** Converts `column` of the rows of `table` where `by` = `system` (the rows the system wrote). */
async function rewriteColumn(
  db: Kysely<any>,
  table: string,
  column: string,
  [by, system]: [string, string],
  convert: (reason: string | null) => string | null,
): Promise<void> {
  const rows = await db
    .selectFrom(table)
    .select(["id", column])
    .where(by, "=", system)
    .where(column, "is not", null)
    .execute();
  for (const row of rows) {
    const reason = convert(row[column]);
    if (reason !== null)
      await db
        .updateTable(table)
        .set({ [column]: reason })
        .where("id", "=", row.id)
        .execute();
  }
}

async function rewrite(db: Kysely<any>, convert: (reason: string | null) => string | null): Promise<void> {
  await rewriteColumn(db, "listings", "hiddenReason", ["hiddenBy", "reports"], convert);
  await rewriteColumn(db, "audit_log", "reason", ["action", "listing.auto-hide"], convert);
}

export async function up(db: Kysely<any>): Promise<void> {
  await rewrite(db, toKey);
}

export async function down(db: Kysely<any>): Promise<void> {
  await rewrite(db, toEnglish);
}
