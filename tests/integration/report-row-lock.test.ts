import { sql } from "kysely";
import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { insertListing } from "../../app/models/listing.server";
import { createReport } from "../../app/models/report.server";
import { insertTestOwner, listingInput, reportInput } from "../factories";
import { describeEachDatabase } from "../test-db";

// A report holds the listing's row while it counts the reports on it (so several at once hide it
// once: tests/integration/reports.test.ts), and writes nothing to that row unless it hides the
// listing. On PostgreSQL a write, even of nothing, is a new version of the row (and, off its page,
// an entry in each of the table's indexes) that vacuum must clear.

/** PostgreSQL's id of the transaction that wrote the row's current version; on SQLite the row as text. */
async function rowVersion(db: DB, dialect: string, id: number): Promise<string> {
  if (dialect === "postgres") {
    const { rows } = await sql<{ v: string }>`select xmin::text as v from listings where id = ${id}`.execute(db);
    return rows[0].v;
  }
  return JSON.stringify(await db.selectFrom("listings").selectAll().where("id", "=", id).executeTakeFirstOrThrow());
}

describeEachDatabase("a report's hold on the listing", (ctx) => {
  it("leaves the listing's row as it was while the reports stay under the hiding weight", async () => {
    const { db, dialect } = ctx();
    const owner = await insertTestOwner(db, "row-lock-owner");
    const listing = await insertListing(db, owner, listingInput({ title: "Room near the row lock" }));
    const before = await rowVersion(db, dialect, listing.id);
    for (const n of [1, 2]) {
      const created = await createReport(db, reportInput(listing.id, { reporterEmail: `lock${n}@example.com` }), {
        autoHideAt: 10,
        reporter: { originGroup: `198.51.100.${n}/32`, visitorKey: null, userId: null },
      });
      expect(created).toMatchObject({ ok: true, autoHidden: false });
    }
    expect(await rowVersion(db, dialect, listing.id)).toBe(before);
  });
});
