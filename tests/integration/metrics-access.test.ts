import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { createMetrics } from "../../server/metrics";

// /metrics through HTTP from this machine, as server/app.ts serves it (anything it does not
// answer goes on to the site, here a bare 404): a loopback client behind any proxy header is
// not local, and a public SITE_URL needs METRICS_TOKEN.

let server: http.Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

async function serveMetrics(options: { token?: string; siteIsLocal: boolean }): Promise<string> {
  const metrics = createMetrics({
    token: options.token,
    siteIsLocal: options.siteIsLocal,
    outboxBacklog: async () => 0,
  });
  server = http.createServer((req, res) => {
    if (metrics.serve(req, res)) return;
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/metrics`;
}

it("a local site answers a loopback client, but not one that X-Real-IP, Forwarded or X-Forwarded-For says was forwarded", async () => {
  const url = await serveMetrics({ siteIsLocal: true });
  expect((await fetch(url)).status).toBe(200);
  for (const headers of [
    { "X-Real-IP": "203.0.113.5" },
    { Forwarded: "for=203.0.113.5" },
    { "X-Forwarded-For": "203.0.113.5" },
  ] as Record<string, string>[])
    expect((await fetch(url, { headers })).status, JSON.stringify(headers)).toBe(404);
});

it("a public site answers only the bearer of METRICS_TOKEN, and nobody without one", async () => {
  expect((await fetch(await serveMetrics({ siteIsLocal: false }))).status).toBe(404);
  await new Promise<void>((resolve) => server!.close(() => resolve()));
  const token = "a-long-enough-metrics-token";
  const url = await serveMetrics({ siteIsLocal: false, token });
  expect((await fetch(url)).status).toBe(404);
  expect((await fetch(url, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
});
