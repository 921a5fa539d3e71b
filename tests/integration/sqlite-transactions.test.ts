import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { createDatabase } from "../../app/db/db.server";
import { migrateToLatest } from "../../app/db/migrate.server";
import { inTransaction } from "../../app/models/in-transaction.server";

// A command run beside the server (`npm run user:role`, `npm run job`) shares the SQLite file
// with it. A transaction that reads and then writes must not fail because the server wrote in
// between (tests/e2e/admin.spec.ts once failed on "database is locked" exactly so).

describe("SQLite transactions beside another writer", () => {
  it("a read-then-write transaction holds the write lock from its start, so another writer waits", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-trx-"));
    const { db, destroy } = createDatabase({ dataDir: dir });
    const server = new DatabaseSync(path.join(dir, "bodima.sqlite"));
    try {
      await migrateToLatest(db);
      let serverWrote = false;
      await expect(
        inTransaction(db, async (trx) => {
          await trx.selectFrom("users").select("id").execute();
          // The server writes now, between our read and our write.
          try {
            server.exec(
              "INSERT INTO users (id, name, email, createdAt, updatedAt) VALUES ('s', 'S', 's@x.lk', 'now', 'now')",
            );
            serverWrote = true;
          } catch (error) {
            // Refused at once (its busy timeout is 0): our transaction holds the lock.
            expect(String(error)).toMatch(/locked|busy/i);
          }
          await trx.updateTable("users").set({ name: "N" }).where("id", "=", "nobody").execute();
        }),
      ).resolves.toBeUndefined();
      expect(serverWrote).toBe(false);
    } finally {
      server.close();
      await destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
