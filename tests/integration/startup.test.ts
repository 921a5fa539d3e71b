import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { parseEnv } from "../../app/env.server";
import { DEMO_OWNERS } from "../../app/seed/demo.server";
import { addDemoDataIfWanted, createServices, type Services } from "../../app/services.server";
import { createLocalPhotoStorage } from "../../app/storage/storage.server";
import { captureLog } from "../capture-log";
import { describeEachDatabase } from "../test-db";

// ADR 018: what a server does at start-up with the operator's
// configuration. A public SITE_URL must not get the demo owners (their
// password is in the README), and a public site without SMTP_URL says loudly
// that its emails go nowhere.

async function demoOwnersIn(db: DB): Promise<string[]> {
  const rows = await db.selectFrom("users").select("email").where("email", "like", "%@demo.bodima.lk").execute();
  return rows.map((r) => r.email);
}

async function listingCount(db: DB): Promise<number> {
  const row = await db
    .selectFrom("listings")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDatabase("demo data at start-up", (ctx) => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-startup-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function servicesFor(db: DB, env: Record<string, string>) {
    const log = captureLog();
    const services = {
      env: parseEnv({ DATA_DIR: dir, ...env }),
      db,
      logger: log.log,
      storage: createLocalPhotoStorage(dir),
    } as unknown as Services;
    return { services, lines: log.lines };
  }

  it("a public SITE_URL gets no demo owners or listings by default, nor with SEED_DEMO=never; SEED_DEMO=always adds them", async () => {
    const { db } = ctx();
    for (const env of [
      { SITE_URL: "https://bodima.lk" },
      { SITE_URL: "http://bodima.example:8080", SEED_DEMO: "auto" },
      { SITE_URL: "http://10.0.0.7:3000" },
      { SEED_DEMO: "never" },
    ] as Record<string, string>[]) {
      const { services, lines } = servicesFor(db, env);
      await addDemoDataIfWanted(services);
      expect(await demoOwnersIn(db), JSON.stringify(env)).toEqual([]);
      expect(await listingCount(db)).toBe(0);
      if (env.SITE_URL)
        expect(lines.map((l) => l.msg).join("\n")).toContain("no demo data: SITE_URL is a public address");
    }

    const { services } = servicesFor(db, { SITE_URL: "https://bodima.lk", SEED_DEMO: "always" });
    await addDemoDataIfWanted(services);
    expect(await demoOwnersIn(db)).toEqual(expect.arrayContaining(DEMO_OWNERS.map((o) => o.email)));
    expect(await listingCount(db)).toBe(80);
  });
});

describe("start-up", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-startup-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function start(env: Record<string, string>) {
    const { log: logger, lines } = captureLog();
    const services = await createServices({
      background: false,
      env: parseEnv({ DATA_DIR: fs.mkdtempSync(path.join(dir, "d-")), NODE_ENV: "test", ...env }),
      logger,
    });
    return { services, lines };
  }

  it("with a public SITE_URL and no SMTP_URL nor SMS_URL: starts, without demo data, and warns that resets and contact messages cannot be delivered and phones cannot be confirmed", async () => {
    const { services, lines } = await start({ SITE_URL: "https://bodima.lk" });
    try {
      const warnings = lines.filter((l) => l.level === 40).map((l) => String(l.msg));
      expect(warnings).toEqual([
        expect.stringMatching(
          /SMTP_URL is not set on a public site: password-reset emails and contact-form messages cannot be delivered/,
        ),
        expect.stringMatching(/SMS_URL is not set on a public site: phone confirmation is off/),
      ]);
      expect(services.phones.enabled).toBe(false);
      expect(await services.phones.requestCode({ id: "nobody" }, "0771234567", "203.0.113.5", "en")).toEqual({
        ok: false,
        code: "phone.off",
      });
      expect(await demoOwnersIn(services.db)).toEqual([]);
      expect(await listingCount(services.db)).toBe(0);
    } finally {
      await services.db.destroy();
    }
  });

  it("does not warn with SMTP_URL and SMS_URL set, nor on a local address (a developer's copy, codes in the outbox)", async () => {
    for (const env of [
      {
        SITE_URL: "https://bodima.lk",
        SMTP_URL: "smtp://mail.example.com:587",
        SMS_URL: "notifylk://1234:key@Bodima",
      },
      { SITE_URL: "http://127.0.0.1:3999", SEED_DEMO: "never" },
      { SEED_DEMO: "never" },
    ] as Record<string, string>[]) {
      const { services, lines } = await start(env);
      expect(services.phones.enabled).toBe(true);
      await services.db.destroy();
      expect(
        lines.filter((l) => l.level === 40),
        JSON.stringify(env),
      ).toEqual([]);
    }
  });
});
