import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";

// docs/operations.md, "Backups": `npm run backup` copies the SQLite database while it is in use.

function backup(env: NodeJS.ProcessEnv, args: string[] = []) {
  return spawnSync(process.execPath, ["--disable-warning=ExperimentalWarning", "scripts/backup.ts", ...args], {
    env: { ...process.env, DATABASE_URL: "", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("npm run backup", () => {
  it("copies a database that another connection is writing, and the copy opens with every committed row", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-backup-"));
    try {
      const live = new DatabaseSync(path.join(dataDir, "bodima.sqlite"));
      live.exec("PRAGMA journal_mode = WAL; create table notes (text text)");
      live.prepare("insert into notes values (?)").run("committed before the backup");
      // A writer in the middle of a transaction: its row is not part of the copy, and it is not blocked.
      live.exec("begin immediate; insert into notes values ('not yet committed')");
      const target = path.join(dataDir, "copy.sqlite");
      const result = backup({ DATA_DIR: dataDir }, [target]);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain(`to ${target}`);
      expect(result.stdout).toContain("integrity ok");
      live.exec("commit");
      live.close();
      const copy = new DatabaseSync(target, { readOnly: true });
      expect(copy.prepare("select text from notes").all()).toEqual([{ text: "committed before the backup" }]);
      copy.close();
      // The default name goes under DATA_DIR/backups, and an existing file is never overwritten.
      expect(backup({ DATA_DIR: dataDir }).status).toBe(0);
      expect(fs.readdirSync(path.join(dataDir, "backups"))).toHaveLength(1);
      const again = backup({ DATA_DIR: dataDir }, [target]);
      expect(again.status).toBe(1);
      expect(again.stderr).toContain("already exists");
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("points PostgreSQL to pg_dump instead", () => {
    const result = backup({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/none" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("pg_dump");
  });
});
