// npm run backup [-- FILE]   copies the SQLite database, consistent even while the server runs
// (VACUUM INTO: one read transaction; writers carry on), to FILE or to
// DATA_DIR/backups/bodima-<time>.sqlite, and prints where. PostgreSQL has its own tools:
// this names them and exits 2. Restore: stop the server, put the copy at DATA_DIR/bodima.sqlite
// (removing bodima.sqlite-wal and -shm), start it again.
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

const databaseUrl = process.env.DATABASE_URL ?? "";
if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
  console.error(
    'DATABASE_URL is PostgreSQL: back it up with its own tools, e.g. pg_dump --format=custom --file=bodima.dump "$DATABASE_URL" ' +
      "(restore with pg_restore), or continuous archiving for point-in-time recovery. README, 'Running at scale'.",
  );
  process.exit(2);
}
const dataDir = path.resolve(process.env.DATA_DIR || "./data");
const source = databaseUrl.startsWith("sqlite:")
  ? databaseUrl.slice("sqlite:".length)
  : path.join(dataDir, "bodima.sqlite");
if (!fs.existsSync(source)) {
  console.error(`There is no database at ${source} to back up (DATA_DIR=${dataDir}).`);
  process.exit(1);
}
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const target = path.resolve(process.argv[2] ?? path.join(dataDir, "backups", `bodima-${stamp}.sqlite`));
if (fs.existsSync(target)) {
  console.error(`${target} already exists: name another file.`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
const db = new DatabaseSync(source, { readOnly: true });
try {
  db.exec("PRAGMA busy_timeout = 10000");
  db.prepare("VACUUM INTO ?").run(target);
} catch (error) {
  console.error(`The backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  db.close();
}
if (!process.exitCode) {
  const check = new DatabaseSync(target, { readOnly: true });
  const integrity = (check.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
  check.close();
  if (integrity !== "ok") {
    console.error(`The copy at ${target} failed its integrity check: ${integrity}`);
    process.exitCode = 1;
  } else {
    console.log(
      `Backed up ${source} to ${target} (${(fs.statSync(target).size / 1024 / 1024).toFixed(1)} MB, integrity ok)`,
    );
  }
}
