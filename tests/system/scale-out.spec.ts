import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createDatabase } from "../../app/db/db.server";
import { CONFIRM_EMAIL_SUBJECT, confirmEmail, field, fillListing, postListing, submitSignUp } from "../e2e/owners";
import { startServer } from "../e2e/spawn-server";
import { ports as testPorts } from "../ports";
import { createPostgresDatabase } from "../postgres-database";
import { startTestRedis, type TestRedis } from "../redis-server";
import { startTestS3, type TestS3 } from "../s3-server";
import { startTestSmtpServer, type TestSmtpServer } from "../smtp-test-server";

// docs/operations.md: two app servers (A and B) on one PostgreSQL, one Redis and one S3 bucket (s3rver
// stands in for S3), behind Debian's nginx running the example configuration of
// docs/deploy/nginx-bodima.conf, checked through the proxy and on each server directly. They share
// no folder: each has its own DATA_DIR, the same SESSION_SECRET, and photos go to the bucket. Needs
// TEST_DATABASE_URL (CI sets it) and nginx and redis-server (.ci/run installs them).

const ports = { proxy: testPorts.scaleOutProxy, a: testPorts.scaleOutA, b: testPorts.scaleOutB };
const proxy = `http://127.0.0.1:${ports.proxy}`;
const direct = { a: `http://127.0.0.1:${ports.a}`, b: `http://127.0.0.1:${ports.b}` };
const UNAVAILABLE =
  "This can't be done right now: part of the site is briefly unavailable. Please try again in a minute.";

const withPostgres = !!process.env.TEST_DATABASE_URL;

/** The example configuration with this test's addresses in its upstream and listen lines. */
function nginxConfig(dir: string): string {
  const example = fs.readFileSync("docs/deploy/nginx-bodima.conf", "utf8");
  const upstreams: string[] = example.match(/^\s*server 10\.0\.0\.\d+:3000 .*;$/gm) ?? [];
  expect(upstreams, "the example names two app servers").toHaveLength(2);
  const [first, second] = [ports.a, ports.b].map((port, i) =>
    upstreams[i].replace(/10\.0\.0\.\d+:3000/, `127.0.0.1:${port}`),
  );
  let site = example.replace(upstreams[0], first).replace(upstreams[1], second);
  expect(site).toMatch(/^\s*listen 80;$/m);
  site = site.replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${ports.proxy};`);
  fs.writeFileSync(path.join(dir, "bodima.conf"), site);
  const temp = (name: string) => path.join(dir, name);
  return `${process.getuid?.() === 0 ? "user root;\n" : ""}daemon off;
pid ${temp("nginx.pid")};
error_log ${temp("error.log")} warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${temp("body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
  include ${temp("bodima.conf")};
}
`;
}

/** One request on a connection of its own; posts carry the site's Origin, as a browser on the public address would send. */
function send(
  base: string,
  pathname: string,
  options: { form?: Record<string, string> } = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
    const req = http.request(`${base}${pathname}`, {
      method: body ? "POST" : "GET",
      agent: false,
      headers: {
        Connection: "close",
        // As the proxy passes it on: the public address's Host (docs/deploy/nginx-bodima.conf).
        Host: `127.0.0.1:${ports.proxy}`,
        ...(body ? { "Content-Type": "application/x-www-form-urlencoded", Origin: proxy } : {}),
      },
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The 6-digit code last texted to `phone` (as typed), from the outbox of the database at `url`. */
async function textedCode(url: string, phone: string): Promise<string> {
  const { db, destroy } = createDatabase({ databaseUrl: url, dataDir: os.tmpdir(), poolSize: 1 });
  try {
    const national = phone.replace(/\D/g, "").slice(-9);
    let code: string | undefined;
    await expect
      .poll(async () => {
        const rows = await db
          .selectFrom("outbox")
          .select(["to", "text"])
          .where("kind", "=", "sms")
          .orderBy("createdAt", "desc")
          .execute();
        code = /\b(\d{6})\b/.exec(rows.find((r) => r.to.replace(/\D/g, "").endsWith(national))?.text ?? "")?.[1];
        return code;
      })
      .toBeDefined();
    return code!;
  } finally {
    await destroy();
  }
}

// Defined only where PostgreSQL is (CI always sets TEST_DATABASE_URL).
if (withPostgres) {
  test.describe("two servers behind nginx", () => {
    test.describe.configure({ mode: "serial" });

    let dataDir: string;
    let redis: TestRedis;
    let s3: TestS3;
    let smtp: TestSmtpServer;
    let database: { url: string; drop: () => Promise<void> };
    let servers: ReturnType<typeof startServer>[] = [];
    let nginx: ChildProcess | undefined;

    test.beforeAll(async () => {
      test.setTimeout(180_000);
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-scale-"));
      redis = await startTestRedis();
      s3 = await startTestS3();
      smtp = await startTestSmtpServer();
      database = await createPostgresDatabase("bodima_scale");
      const sessionSecret = randomBytes(32).toString("hex");
      const env = (port: number) => ({
        WEB_CONCURRENCY: "1",
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        STORAGE_URL: s3.storageUrl(),
        SESSION_SECRET: sessionSecret,
        ...s3.env,
        SITE_URL: proxy,
        TRUST_PROXY: "1",
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        RATE_LIMITS: "contactIp=100,signupIp=100",
        PORT: String(port),
      });
      // The demo data (a local SITE_URL) goes in once, through A; B starts on the migrated database.
      fs.mkdirSync(path.join(dataDir, "a"));
      fs.mkdirSync(path.join(dataDir, "b"));
      servers.push(startServer(path.join(dataDir, "a"), "auto", { port: ports.a, env: env(ports.a) }));
      await servers[0].started;
      servers.push(startServer(path.join(dataDir, "b"), "auto", { port: ports.b, env: env(ports.b) }));
      await servers[1].started;
      const nginxDir = path.join(dataDir, "nginx");
      fs.mkdirSync(nginxDir);
      fs.writeFileSync(path.join(nginxDir, "nginx.conf"), nginxConfig(nginxDir));
      const binary = fs.existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";
      nginx = spawn(binary, ["-p", nginxDir, "-c", path.join(nginxDir, "nginx.conf")], { stdio: "ignore" });
      await until(async () => (await send(proxy, "/healthz").catch(() => ({ status: 0 }))).status === 200, 10_000);
    });

    test.afterAll(async () => {
      nginx?.kill("SIGTERM");
      for (const server of servers) {
        server.stop();
        await server.exited;
      }
      servers = [];
      await redis.stop();
      await s3.close();
      await smtp.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    test("the proxy reaches both servers, says when they are ready, and keeps /metrics private", async () => {
      for (const base of [proxy, direct.a, direct.b]) {
        expect((await send(base, "/")).status, base).toBe(200);
        expect((await send(base, "/readyz")).body.trim(), base).toBe("ready");
      }
      expect((await send(proxy, "/metrics")).status).toBe(404);
      // Each server's own address, from this machine, gives its metrics.
      expect((await send(direct.a, "/metrics")).status).toBe(200);
    });

    test("a listing posted through the proxy shows on both servers' cached /browse within a second, its photo from the bucket on both", async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      // Both servers have /browse in their page cache.
      for (const base of [direct.a, direct.b]) {
        await send(base, "/browse");
        expect((await send(base, "/browse")).headers["x-page-cache"], base).toBe("HIT");
      }
      const context = await browser.newContext({ baseURL: proxy });
      const page = await context.newPage();
      // These servers mail their own SMTP server, not the shared sink: the confirmation is read there.
      const email = await submitSignUp(page, "Scale Owner");
      await expect
        .poll(() => smtp.received.some((m) => m.to.includes(email) && CONFIRM_EMAIL_SUBJECT.test(m.subject)))
        .toBe(true);
      const confirmation = smtp.received.find((m) => m.to.includes(email) && CONFIRM_EMAIL_SUBJECT.test(m.subject));
      await confirmEmail(page, email, confirmation);
      await page.goto("/dashboard");
      const title = `Scale-out room ${randomBytes(3).toString("hex")}`;
      // The contact phone is confirmed by its texted code first (ADR 076): asked through the proxy, the
      // code kept in the shared database's outbox (these servers' SMS_URL is the outbox: a local site),
      // and confirmed through the proxy again, whichever server answers each request.
      await page.goto("/dashboard/listings/new");
      await fillListing(page, title);
      await page.getByRole("button", { name: "Send code" }).click();
      await page
        .getByLabel("Code from the SMS")
        .fill(await textedCode(database.url, await field(page, "Contact phone").inputValue()));
      await page.getByRole("button", { name: "Confirm", exact: true }).click();
      await expect(page.getByText("Phone number confirmed ✓")).toBeVisible();
      await postListing(page, title);
      for (const base of [direct.a, direct.b]) {
        const waited = await until(async () => (await send(base, "/browse")).body.includes(title), 5_000);
        expect(waited, `${base}: ${waited} ms after the post was acknowledged`).toBeLessThanOrEqual(1_000);
      }
      // The listing's photo, uploaded through whichever server the proxy chose, is served by both.
      const browse = await send(direct.b, "/browse");
      const slug = new RegExp(`href="(/listing/[^"]+)"[^>]*>[^<]*${title}`).exec(browse.body)?.[1];
      expect(slug).toBeDefined();
      const listing = await send(direct.a, slug!);
      const photo = /src="(\/photos\/[^"]+)"/.exec(listing.body)?.[1];
      expect(photo).toBeDefined();
      for (const base of [direct.a, direct.b]) expect((await send(base, photo!)).status, base).toBe(200);
      // From the bucket: nothing was written to the servers' own disks, not even secrets.
      for (const own of ["a", "b"]) {
        expect(fs.readdirSync(path.join(dataDir, own))).toEqual([]);
      }
      await context.close();
    });

    test("five failed logins split between the two servers lock the account, as five on one would", async () => {
      const attempt = (base: string) =>
        send(base, "/login", { form: { email: "owner1@demo.bodima.lk", password: "Wrong-password-1" } });
      const statuses: number[] = [];
      for (const base of [direct.a, direct.b, direct.a, direct.b, direct.a, direct.b]) {
        statuses.push((await attempt(base)).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    });

    test("twenty mails queued on both servers reach the mail server exactly once each", async () => {
      test.setTimeout(60_000);
      const markers = Array.from({ length: 20 }, (_, i) => `scale-message-${i + 1}-end`);
      for (const [i, marker] of markers.entries()) {
        const form = { name: "Nimali Perera", email: "nimali@example.lk", subject: "General Inquiry", message: marker };
        expect((await send(i % 2 ? direct.b : direct.a, "/contact", { form })).status).toBe(200);
      }
      const markerOf = (text: string) => markers.find((m) => text.includes(m));
      const received = () => smtp.received.filter((m) => markerOf(m.text));
      await expect.poll(() => received().length, { timeout: 20_000 }).toBe(20);
      // Past another round of both servers' senders (every 5 s): nothing goes out again.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(new Set(received().map((m) => markerOf(m.text))).size).toBe(20);
      expect(received()).toHaveLength(20);
    });

    test("with Redis stopped, login through the proxy says it is briefly unavailable and the rest works; then it recovers", async () => {
      test.setTimeout(60_000);
      await redis.stop();
      const refused = await send(proxy, "/login", {
        form: { email: "owner2@demo.bodima.lk", password: "Bodima-demo-2026" },
      });
      expect(refused.status).toBe(503);
      expect(refused.body).toContain(UNAVAILABLE.replace("'", "&#x27;"));
      for (const pathname of ["/", "/browse", "/about", "/api/listings?limit=1"]) {
        expect((await send(proxy, pathname)).status, pathname).toBe(200);
      }
      await redis.start();
      await until(async () => (await send(proxy, "/readyz")).status === 200, 15_000);
      const back = await send(proxy, "/login", {
        form: { email: "owner2@demo.bodima.lk", password: "Bodima-demo-2026" },
      });
      expect(back.status).toBe(302);
    });
  });
}
