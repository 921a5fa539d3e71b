import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../app/db/db.server";
import { migrateToLatest } from "../../app/db/migrate.server";
import { createOwnerAccount } from "../../app/models/account.server";
import { parseUserRoleArgs } from "../../scripts/user-role-args";
import { adminQuery } from "../postgres-database";

describe("parseUserRoleArgs", () => {
  it("reads an email and a role, and explains what is wrong", () => {
    expect(parseUserRoleArgs(["a@b.lk", "moderator"])).toEqual({ email: "a@b.lk", role: "moderator" });
    expect(parseUserRoleArgs(["a@b.lk", "owner"])).toEqual({ email: "a@b.lk", role: "owner" });
    expect(parseUserRoleArgs(["--help"])).toEqual({ help: true });
    expect(parseUserRoleArgs(["a@b.lk"])).toEqual({ error: "Give an email and a role." });
    expect(parseUserRoleArgs(["nobody", "owner"])).toEqual({ error: "Not an email address: nobody" });
    expect(parseUserRoleArgs(["a@b.lk", "admin"])).toEqual({ error: 'Unknown role "admin": use owner or moderator.' });
  });
});

type Target = { name: string; env: Record<string, string>; url?: string; dataDir: string };

/** The database the script is pointed at: SQLite in a data folder, or (with TEST_DATABASE_URL) a fresh PostgreSQL database. */
function targets(): Target[] {
  const list: Target[] = [
    { name: "sqlite", env: {}, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "bodima-user-role-")) },
  ];
  if (process.env.TEST_DATABASE_URL) {
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/bodima_role_${randomBytes(6).toString("hex")}`;
    list.push({
      name: "postgres",
      env: { DATABASE_URL: url.toString() },
      url: url.toString(),
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "bodima-user-role-")),
    });
  }
  return list;
}

for (const target of targets()) {
  describe(`npm run user:role [${target.name}]`, () => {
    const open = () => createDatabase({ databaseUrl: target.url, dataDir: target.dataDir });
    const email = "Role.Person@Example.lk";

    beforeAll(async () => {
      if (target.url) await adminQuery(`create database ${new URL(target.url).pathname.slice(1)}`);
      const { db, destroy } = open();
      await migrateToLatest(db);
      await createOwnerAccount(db, { name: "Role Person", email, phone: "", password: "Secret-pass1" });
      await destroy();
    });
    afterAll(async () => {
      fs.rmSync(target.dataDir, { recursive: true, force: true });
      if (target.url) await adminQuery(`drop database if exists ${new URL(target.url).pathname.slice(1)} with (force)`);
    });

    function runScript(...args: string[]) {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATA_DIR: target.dataDir,
        NODE_ENV: "production",
        ...target.env,
      };
      if (!target.url) delete env.DATABASE_URL;
      return spawnSync(process.execPath, ["--disable-warning=ExperimentalWarning", "scripts/user-role.ts", ...args], {
        env,
        encoding: "utf8",
        timeout: 60_000,
      });
    }

    async function roleOf(address: string) {
      const { db, destroy } = open();
      try {
        const row = await db.selectFrom("users").select("role").where("email", "=", address).executeTakeFirst();
        const audit = await db
          .selectFrom("audit_log")
          .select(["action", "actorId"])
          .where("action", "=", "user.role")
          .execute();
        return { role: row?.role, audits: audit.length };
      } finally {
        await destroy();
      }
    }

    it("grants the moderator role, says so when nothing changes, and takes it back", async () => {
      const grant = runScript(email.toUpperCase(), "moderator");
      expect(grant.stderr).toBe("");
      expect(grant.stdout.trim()).toBe(`${email.toUpperCase()} is now a moderator.`);
      expect(grant.status).toBe(0);
      expect(await roleOf("role.person@example.lk")).toEqual({ role: "moderator", audits: 1 });

      const again = runScript(email, "moderator");
      expect(again.stdout.trim()).toBe(`${email} is already a moderator.`);
      expect(again.status).toBe(0);

      const revoke = runScript(email, "owner");
      expect(revoke.stdout.trim()).toBe(`${email} is now an owner.`);
      expect(revoke.status).toBe(0);
      expect(await roleOf("role.person@example.lk")).toEqual({ role: "owner", audits: 2 });
    });

    it("refuses an unknown email or role with a clear message and exit code 1, changing nothing", async () => {
      const unknown = runScript("nobody@example.lk", "moderator");
      expect(unknown.stderr.trim()).toBe("No account has the email nobody@example.lk.");
      expect(unknown.status).toBe(1);

      const badRole = runScript(email, "admin");
      expect(badRole.stderr).toContain('Unknown role "admin": use owner or moderator.');
      expect(badRole.stderr).toContain("Usage: npm run user:role -- EMAIL ROLE");
      expect(badRole.status).toBe(1);
      expect((await roleOf("role.person@example.lk")).role).toBe("owner");
    });
  });
}
