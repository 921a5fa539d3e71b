import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createDatabase } from "../app/db/db.server";
import { parseSeedArgs } from "./seed-args";

describe("parseSeedArgs", () => {
  it("reads the number of listings in either form", () => {
    expect(parseSeedArgs(["--listings", "100000"])).toEqual({ listings: 100000 });
    expect(parseSeedArgs(["--listings=25"])).toEqual({ listings: 25 });
    expect(parseSeedArgs(["--help"])).toEqual({ help: true });
  });

  it("explains what is wrong", () => {
    expect(parseSeedArgs([])).toEqual({ error: "Missing --listings N" });
    expect(parseSeedArgs(["--listings"])).toEqual({ error: "Missing --listings N" });
    expect(parseSeedArgs(["--listings", "ten"])).toEqual({ error: "--listings must be a whole number" });
    expect(parseSeedArgs(["--listings", "0"])).toEqual({ error: "--listings must be between 1 and 1000000" });
    expect(parseSeedArgs(["--listings", "5000001"])).toEqual({ error: "--listings must be between 1 and 1000000" });
    expect(parseSeedArgs(["--count", "5"])).toEqual({ error: "Unknown argument: --count" });
  });
});

describe("npm run seed", () => {
  it("migrates the configured database and adds the listings", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-seed-cli-"));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: "production" };
      delete env.DATABASE_URL;
      const result = spawnSync(
        process.execPath,
        ["--disable-warning=ExperimentalWarning", "scripts/seed.ts", "--listings", "40"],
        {
          env,
          encoding: "utf8",
          timeout: 60_000,
        },
      );
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/Done: 40 listings added in \d+\.\d s\./);

      const { db, destroy } = createDatabase({ dataDir });
      const row = await db
        .selectFrom("listings")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      await destroy();
      expect(Number(row.n)).toBe(40);
      expect(fs.readdirSync(path.join(dataDir, "photos")).length).toBe(30);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses a bad argument with the usage text", () => {
    const result = spawnSync(process.execPath, ["scripts/seed.ts", "--listings", "lots"], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--listings must be a whole number");
    expect(result.stderr).toContain("Usage: npm run seed -- --listings N");
  });
});
