import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ports } from "../ports";
import { startServer } from "./spawn-server";

// docs/performance.md: `npm start` (server.ts) runs React and every library in
// production mode even when nobody sets NODE_ENV, and the browser gets the
// production bundle. React's development build is about half the speed.

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");

test("server.ts without NODE_ENV renders with React's production build", async () => {
  test.slow();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-prod-mode-"));
  const run = startServer(dataDir, "never", { port: ports.productionBuild });
  try {
    const firstLine = await run.started;
    expect(firstLine).toContain("NODE_ENV=production");
    expect(firstLine).toContain("React production build");
  } finally {
    run.stop();
    await run.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a view counted just before SIGTERM is written before the server exits", async () => {
  test.slow();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-sigterm-"));
  const run = startServer(dataDir, "auto", { port: ports.viewBeforeSigterm });
  try {
    await run.started;
    const base = `http://127.0.0.1:${ports.viewBeforeSigterm}`;
    const { ads } = (await (await fetch(`${base}/api/listings?limit=1`)).json()) as {
      ads: { id: string; slug: string }[];
    };
    const { DatabaseSync } = await import("node:sqlite");
    const readViews = () => {
      const db = new DatabaseSync(path.join(dataDir, "bodima.sqlite"), { readOnly: true });
      try {
        const row = db.prepare('select views from listing_counters where "listingId" = ?').get(Number(ads[0].id)) as
          | { views: number }
          | undefined;
        return Number(row?.views ?? 0);
      } finally {
        db.close();
      }
    };
    const before = readViews();
    const page = await fetch(`${base}/listing/${ads[0].slug}`, {
      headers: { "User-Agent": "Mozilla/5.0 (Linux; Android 13) Chrome/126.0 Mobile Safari/537.36" },
    });
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie().join(";")).toContain("bodima_vs=");
    // At once: the buffer writes once a second, so the view is still in memory.
    run.stop();
    expect(await run.exited).toBe(0);
    expect(readViews()).toBe(before + 1);
  } finally {
    await run.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

// ADR 018: a site on a public address, with the defaults.
test("a public SITE_URL gets no demo data, no /dev/outbox, and start-up warnings that its mail goes nowhere and phones cannot be confirmed", async () => {
  test.slow();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-public-"));
  const output: string[] = [];
  const ownPort = ports.publicSite;
  const run = startServer(dataDir, "auto", { port: ownPort, env: { SITE_URL: "https://bodima.example" }, output });
  try {
    await run.started;
    const log = output.join("");
    expect(log).toContain(
      "SMTP_URL is not set on a public site: password-reset emails and contact-form messages cannot be delivered",
    );
    // ADR 075: without an SMS gateway it starts all the same, and says what is off.
    expect(log).toContain("SMS_URL is not set on a public site: phone confirmation is off");
    const base = `http://127.0.0.1:${ownPort}`;
    const list = (await (await fetch(`${base}/api/listings`)).json()) as { pagination: { total: number } };
    expect(list.pagination.total).toBe(0);
    expect((await fetch(`${base}/dev/outbox`)).status).toBe(404);
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(path.join(dataDir, "bodima.sqlite"), { readOnly: true });
    try {
      expect(db.prepare("select email from users where email like '%@demo.bodima.lk'").all()).toEqual([]);
    } finally {
      db.close();
    }
  } finally {
    run.stop();
    await run.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

// ADR 075: the development SMS outbox keeps codes instead of texting them; a public site refuses it.
test("a public SITE_URL refuses to start with SMS_URL=outbox:, naming the variable", async () => {
  test.slow();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-sms-outbox-"));
  const errors: string[] = [];
  const run = startServer(dataDir, "never", {
    port: ports.smsOutboxRefused,
    env: { SITE_URL: "https://bodima.example", SMS_URL: "outbox:", WEB_CONCURRENCY: "1" },
  });
  run.server.stderr.on("data", (chunk: Buffer) => errors.push(chunk.toString()));
  run.started.catch(() => {});
  try {
    expect(await run.exited).toBe(1);
    expect(errors.join("")).toContain(
      "SMS_URL: outbox: keeps codes in the database instead of texting them; a public site needs a real gateway",
    );
  } finally {
    await run.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("the browser bundle is React's production build", () => {
  const assets = path.join(buildDir, "client", "assets");
  const scripts = fs.readdirSync(assets).filter((f) => f.endsWith(".js"));
  expect(scripts.length).toBeGreaterThan(0);
  for (const file of scripts) {
    const text = fs.readFileSync(path.join(assets, file), "utf8");
    // Messages that exist only in React's development builds.
    expect(text, file).not.toContain("Download the React DevTools");
    expect(text, file).not.toContain("react-dom.development");
  }
});
