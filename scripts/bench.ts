// Measures public pages at scale against the production build:
//   npm run bench -- --listings 100000 [--requests 30]
// Seeds a fresh data folder (SQLite, or PostgreSQL when BENCH_DATABASE_URL is set),
// starts the production server, and reports median and p95 server times.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const listings = arg("listings", 100_000);
const requests = arg("requests", 30);
const port = arg("port", 3299);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-bench-"));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
  NODE_ENV: "production",
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
};

const started = Date.now();
const seed = spawnSync("npm", ["run", "seed", "--", "--listings", String(listings)], { env, stdio: "inherit" });
if (seed.status !== 0) process.exit(seed.status ?? 1);
console.log(`seeded ${listings} listings in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const server = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", "server.ts"], {
  env,
  stdio: ["ignore", "ignore", "inherit"],
  detached: true,
});
const base = `http://127.0.0.1:${port}`;

async function waitForServer() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("server did not start");
}

async function time(url: string): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}${url}`);
    await res.arrayBuffer();
    if (res.status >= 500) throw new Error(`${url} answered ${res.status}`);
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b);
}

try {
  await waitForServer();
  const listing = (await (await fetch(`${base}/api/listings?limit=1`)).json()) as { ads: { slug: string }[] };
  const urls = [
    "/",
    "/browse",
    "/browse?page=500",
    "/browse?university=University%20of%20Moratuwa&propertyType=single&maxPrice=30000",
    "/browse?search=room%20near%20campus",
    "/search/Kandy",
    `/listing/${listing.ads[0]?.slug}`,
    "/api/listings?limit=50",
    "/sitemap.xml",
  ];
  console.log(`\n${"page".padEnd(80)} median    p95`);
  for (const url of urls) {
    await time(url); // warm up
    const s = await time(url);
    const median = s[Math.floor(s.length / 2)];
    const p95 = s[Math.min(s.length - 1, Math.floor(s.length * 0.95))];
    console.log(`${url.padEnd(80)} ${median.toFixed(0).padStart(5)} ms ${p95.toFixed(0).padStart(5)} ms`);
  }
} finally {
  process.kill(-server.pid!, "SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
