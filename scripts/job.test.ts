import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createDatabase } from "../app/db/db.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { insertListing } from "../app/models/listing.server";
import { insertTestOwner, listingInput } from "../tests/factories";
import { startTestSmtpServer } from "../tests/smtp-test-server";

function runJobCli(args: string[], env: NodeJS.ProcessEnv, nodeArgs: string[] = []) {
  return spawnSync(
    process.execPath,
    ["--disable-warning=ExperimentalWarning", ...nodeArgs, "scripts/job.ts", ...args],
    {
      env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "silent", SEED_DEMO: "never", ...env },
      encoding: "utf8",
      timeout: 60_000,
    },
  );
}

/** `send-mail` on a fresh database, with a module of the test's (its source) loaded into the job's process first. */
function sendMailWith(moduleSource: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-job-with-"));
  try {
    const importUrl = `data:text/javascript,${encodeURIComponent(moduleSource)}`;
    return runJobCli(["send-mail"], { DATA_DIR: dataDir }, ["--import", importUrl]);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function runJobCliAsync(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", "scripts/job.ts", ...args], {
      env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "silent", SEED_DEMO: "never", ...env },
      timeout: 60_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("npm run job", () => {
  it("lists the jobs, and refuses an unknown one with that list", () => {
    const help = runJobCli(["--help"], {});
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: npm run job -- <name> [<name>…]");
    expect(help.stdout).toContain("send-mail");
    expect(help.stdout).toContain("remove-stale-uploads");

    const unknown = runJobCli(["tidy-everything"], {});
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('There is no job called "tidy-everything".');
    expect(unknown.stderr).toContain("remove-stale-uploads");
  });

  it("runs a job without loading Vite (docs/decisions/071-scripts-without-vite.md)", () => {
    // A hook in the job's process that refuses any import of Vite.
    const run = sendMailWith(
      'import { registerHooks } from "node:module"; registerHooks({ resolve(s, c, next) { if (s === "vite" || s.startsWith("vite/")) throw new Error("the job imported Vite"); return next(s, c); } });',
    );
    expect(run.stderr).not.toContain("the job imported Vite");
    expect({ status: run.status, stdout: run.stdout }).toEqual({
      status: 0,
      stdout: expect.stringContaining("send-mail: delivered 0"),
    });
  });

  it("runs at the lowest CPU priority, so the server's requests on the same machine go first (ADR 142)", () => {
    // Says, as the process ends, the priority its main thread ran at.
    const run = sendMailWith(
      'import os from "node:os"; process.on("exit", () => process.stderr.write("priority " + os.getPriority() + "\\n"));',
    );
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`priority ${os.constants.priority.PRIORITY_LOW}`);
  });

  it("runs one job once on the configured database, on the clock NOW sets", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-job-cli-"));
    try {
      const { db, destroy } = createDatabase({ dataDir });
      await migrateToLatest(db);
      // An upload that never became part of a listing, made on 2027-01-01: stale a day later, not before.
      const owner = await insertTestOwner(db, "job-owner");
      await db
        .insertInto("listing_photos")
        .values({
          id: "stale-upload",
          listingId: null,
          userId: owner.id,
          position: 0,
          width: 1,
          height: 1,
          bytes: 1,
          variants: "[]",
          alt: null,
          createdAt: "2027-01-01T08:00:00.000Z",
        })
        .execute();
      await destroy();

      const early = runJobCli(["remove-stale-uploads"], {
        DATA_DIR: dataDir,
        NODE_ENV: "development",
        NOW: "2027-01-01T20:00:00Z",
      });
      expect(early.stderr).toBe("");
      expect(early.status).toBe(0);
      expect(early.stdout).toContain("remove-stale-uploads: removed 0");

      const later = runJobCli(["remove-stale-uploads"], {
        DATA_DIR: dataDir,
        NODE_ENV: "development",
        NOW: "2027-01-02T09:00:00Z",
      });
      expect(later.status).toBe(0);
      expect(later.stdout).toContain("remove-stale-uploads: removed 1");
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses NOW in production", () => {
    const result = runJobCli(["remove-stale-uploads"], { NODE_ENV: "production", NOW: "2027-01-02T09:00:00Z" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("NOW: only for trying time-based rules outside production");
  });

  it("refuses NOW without NODE_ENV, as the server does (unset means production)", () => {
    // Vite, which loads the app for scripts, would set "development" if the script left it unset.
    const result = runJobCli(["remove-stale-uploads"], { NODE_ENV: undefined, NOW: "2027-01-02T09:00:00Z" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("NOW: only for trying time-based rules outside production");
    expect(result.stdout).not.toContain("remove-stale-uploads:");
  });

  it("runs several jobs in one process on one clock: the reminder NOW queues is sent (the README's recipe)", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-job-cli-"));
    const smtp = await startTestSmtpServer();
    try {
      const { db, destroy } = createDatabase({ dataDir });
      await migrateToLatest(db);
      const owner = await insertTestOwner(db, "recipe-owner");
      await insertListing(db, owner, listingInput({ title: "Annex for the recipe" }));
      await destroy();

      // Asynchronous: the SMTP server answers in this process while the job runs.
      const result = await runJobCliAsync(["availability-reminders", "send-mail"], {
        DATA_DIR: dataDir,
        NODE_ENV: "development",
        NOW: new Date(Date.now() + 15 * 24 * 60 * 60 * 1000).toISOString(),
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      });
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(result.stdout).toContain("availability-reminders: reminded 1");
      expect(result.stdout).toContain("send-mail: delivered 1");
      expect(smtp.received.map((m) => [m.to, m.subject])).toEqual([
        [[owner.email], expect.stringContaining('Is "Annex for the recipe" still available?')],
      ]);
    } finally {
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
