import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createDatabase } from "../app/db/db.server";
import { appliedMigrations } from "../app/db/migrate.server";
import { migrations } from "../app/db/migrations";

// Migrations can be run once, before a new version starts on several servers (docs/operations.md, "Upgrades").

function migrate(dataDir: string) {
  return spawnSync(process.execPath, ["--disable-warning=ExperimentalWarning", "scripts/migrate.ts"], {
    env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, LOG_LEVEL: "silent" },
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("npm run migrate", () => {
  it("brings a new database to the latest schema, says what it applied, and then that nothing is left", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-migrate-cli-"));
    try {
      const first = migrate(dataDir);
      expect(first.status, first.stderr).toBe(0);
      const names = Object.keys(migrations);
      expect(first.stdout).toContain(`sqlite: applied ${names.length} migrations`);
      const again = migrate(dataDir);
      expect(again.status).toBe(0);
      expect(again.stdout).toContain(`sqlite: already up to date (${names.at(-1)})`);
      const { db, destroy } = createDatabase({ dataDir });
      expect(await appliedMigrations(db)).toEqual(names);
      await destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
