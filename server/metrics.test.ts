import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { routeLabel } from "../app/lib/metrics.server";
import { createMetrics } from "./metrics";

// ADR 042: /metrics is not public (METRICS_TOKEN, or this machine without a proxy),
// and its labels stay few whatever URLs strangers send.

function request(headers: Record<string, string>, remoteAddress: string) {
  return { url: "/metrics", method: "GET", headers, socket: { remoteAddress } } as unknown as IncomingMessage;
}

function response() {
  const answer = { status: 0, body: "", headers: {} as Record<string, string> };
  let done: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    done = resolve;
  });
  const res = {
    writeHead(status: number, headers: Record<string, string> = {}) {
      answer.status = status;
      answer.headers = headers;
    },
    end(body?: string) {
      answer.body = body ?? "";
      done();
    },
  } as unknown as ServerResponse;
  return { res, answer, ended };
}

describe("/metrics", () => {
  it("without METRICS_TOKEN answers only a client on this machine that came through no proxy", async () => {
    const metrics = createMetrics({ token: undefined, siteIsLocal: true, outboxBacklog: async () => 7 });
    expect(metrics.serve(request({}, "203.0.113.5"), response().res)).toBe(false);
    expect(metrics.serve(request({ "x-forwarded-for": "203.0.113.5" }, "127.0.0.1"), response().res)).toBe(false);
    const { res, answer, ended } = response();
    expect(metrics.serve(request({}, "127.0.0.1"), res)).toBe(true);
    await ended;
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("bodima_outbox_backlog 7");
    expect(answer.body).toContain("bodima_page_cache_compressions_waiting 0");
    expect(answer.headers).toMatchObject({ "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" });
    expect(answer.body).toContain("# TYPE bodima_http_requests_total counter");
  });

  it("says how full the page cache is and may be", async () => {
    const dropped = { evicted: 4, expired: 2, invalidated: 1, stale: 0 };
    const pageCacheSize = () => ({ bytes: 5_000, entries: 3, maxBytes: 128 * 1024 * 1024, dropped });
    const metrics = createMetrics({ token: undefined, siteIsLocal: true, outboxBacklog: async () => 0, pageCacheSize });
    const { res, answer, ended } = response();
    expect(metrics.serve(request({}, "127.0.0.1"), res)).toBe(true);
    await ended;
    expect(answer.body).toMatch(/^bodima_page_cache_bytes 5000$/m);
    expect(answer.body).toMatch(/^bodima_page_cache_entries 3$/m);
    expect(answer.body).toMatch(/^bodima_page_cache_max_bytes 134217728$/m);
    expect(answer.body).toMatch(/^bodima_page_cache_dropped_total\{reason="evicted"\} 4$/m);
    expect(answer.body).toMatch(/^bodima_page_cache_dropped_total\{reason="expired"\} 2$/m);
    // Running totals, shown as they are: asked again, they have not doubled.
    dropped.evicted = 5;
    const again = response();
    expect(metrics.serve(request({}, "127.0.0.1"), again.res)).toBe(true);
    await again.ended;
    expect(again.answer.body).toMatch(/^bodima_page_cache_dropped_total\{reason="evicted"\} 5$/m);
    expect(again.answer.body).toMatch(/^bodima_page_cache_dropped_total\{reason="expired"\} 2$/m);
  });

  it("with METRICS_TOKEN answers only the bearer of the token, from anywhere", async () => {
    const token = "a-long-enough-metrics-token";
    const metrics = createMetrics({ token, siteIsLocal: false, outboxBacklog: async () => 0 });
    expect(metrics.serve(request({}, "127.0.0.1"), response().res)).toBe(false);
    expect(metrics.serve(request({ authorization: "Bearer wrong" }, "127.0.0.1"), response().res)).toBe(false);
    const { res, answer, ended } = response();
    expect(metrics.serve(request({ authorization: `Bearer ${token}` }, "198.51.100.1"), res)).toBe(true);
    await ended;
    expect(answer.status).toBe(200);
  });

  it("without METRICS_TOKEN refuses a loopback request that any proxy header says was forwarded", async () => {
    const metrics = createMetrics({ token: undefined, siteIsLocal: true, outboxBacklog: async () => 0 });
    for (const headers of [
      { "x-real-ip": "203.0.113.5" },
      { forwarded: "for=203.0.113.5;proto=https" },
      { "x-forwarded-for": "203.0.113.5" },
      { "x-forwarded-host": "bodima.lk" },
      { "x-forwarded-proto": "https" },
      { "true-client-ip": "203.0.113.5" },
      { "cf-connecting-ip": "203.0.113.5" },
      { via: "1.1 proxy" },
    ] as Record<string, string>[])
      for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
        expect(metrics.serve(request(headers, address), response().res), `${JSON.stringify(headers)} ${address}`).toBe(
          false,
        );
  });

  it("on a public SITE_URL without METRICS_TOKEN answers nobody, and says so at start-up", async () => {
    const warnings: unknown[] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args) };
    const metrics = createMetrics({ token: undefined, siteIsLocal: false, outboxBacklog: async () => 0, log });
    expect(metrics.serve(request({}, "127.0.0.1"), response().res)).toBe(false);
    expect(metrics.serve(request({}, "::1"), response().res)).toBe(false);
    expect(JSON.stringify(warnings)).toContain("METRICS_TOKEN is not set on a public site");
    // A local site, or a token, says nothing.
    warnings.length = 0;
    createMetrics({ token: undefined, siteIsLocal: true, outboxBacklog: async () => 0, log });
    createMetrics({ token: "a-long-enough-metrics-token", siteIsLocal: false, outboxBacklog: async () => 0, log });
    expect(warnings).toEqual([]);
  });

  it("counts page-cache hits as they happen, though they are added up only when /metrics is read", async () => {
    const metrics = createMetrics({ token: undefined, siteIsLocal: true, outboxBacklog: async () => 0 });
    const read = async () => {
      const { res, answer, ended } = response();
      metrics.serve(request({}, "127.0.0.1"), res);
      await ended;
      const count = (pattern: RegExp) => Number(pattern.exec(answer.body)?.[1] ?? 0);
      return {
        hits: count(/^bodima_page_cache_total\{result="hit"\} (\d+)$/m),
        about: count(/^bodima_http_requests_total\{route="\/about",status="2xx"\} (\d+)$/m),
      };
    };
    const before = await read();
    const hit = { url: "/about", method: "GET", headers: {} } as unknown as IncomingMessage;
    for (let i = 0; i < 3; i++) metrics.hit(hit, { statusCode: 200 } as ServerResponse);
    expect(await read()).toEqual({ hits: before.hits + 3, about: before.about + 3 });
    // Added once: reading again adds nothing more.
    expect(await read()).toEqual({ hits: before.hits + 3, about: before.about + 3 });
  });

  it("labels a request by its first path segment, in any language, never by the whole URL", () => {
    expect(routeLabel("/")).toBe("/");
    expect(routeLabel("/si")).toBe("/");
    expect(routeLabel("/listing/a-room-near-campus?x=1")).toBe("/listing");
    expect(routeLabel("/ta/browse?search=room")).toBe("/browse");
    expect(routeLabel("/browse.data?page=2")).toBe("/browse");
    expect(routeLabel("/sitemap-listings-3.xml")).toBe("/sitemap.xml");
    expect(routeLabel("/wp-admin/setup.php")).toBe("other");
    expect(routeLabel(`/${"x".repeat(5000)}`)).toBe("other");
  });
});
