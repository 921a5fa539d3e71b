import { sql } from "kysely";
import { expect, it } from "vitest";
import { warnAboutDatabase } from "../../app/db/maintenance.server";
import { captureLog } from "../capture-log";
import { describeEachDatabase } from "../test-db";

// A server that never vacuums slows down hour by hour (ADR 110): the operator hears it at start-up.
describeEachDatabase("start-up warnings about the database", (ctx) => {
  it("warns exactly when PostgreSQL runs without autovacuum, and never on SQLite", async () => {
    const { db, dialect } = ctx();
    const { log, lines } = captureLog();
    await warnAboutDatabase(db, log);
    const warned = lines.filter((l) => String(l.msg).includes("autovacuum off"));
    if (dialect === "sqlite") {
      expect(warned).toEqual([]);
      return;
    }
    // Read from the server itself: the test machines run autovacuum off (their CI settings), production on.
    const { rows } = await sql<{ autovacuum: string }>`show autovacuum`.execute(db);
    expect(warned).toHaveLength(rows[0].autovacuum === "off" ? 1 : 0);
    if (warned.length) expect(warned[0].level).toBe(40);
  });
});
