import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "../../app/env.server";
import { clientIpFrom, expressTrustProxy } from "../../app/limits/client-ip.server";
import { securityMiddleware } from "../../app/security/middleware.server";

// TRUST_PROXY names the reverse proxies (ADR 064): forwarded headers count only
// when one of them is the one connecting. A real server on a free port, set up
// as server/app.ts sets up its Express app, asked over HTTP from 127.0.0.1.

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function serverWith(trustProxySetting: string): Promise<string> {
  const env = parseEnv({ SITE_URL: "http://bodima.test", TRUST_PROXY: trustProxySetting });
  const app = express();
  if (env.TRUST_PROXY) app.set("trust proxy", expressTrustProxy(env.TRUST_PROXY));
  app.use(
    securityMiddleware({
      siteUrl: env.siteUrl,
      siteName: "Bodima",
      development: false,
      trustProxy: env.TRUST_PROXY,
      logger: pino({ level: "silent" }),
    }),
  );
  app.get("/who", (req, res) => {
    const clientIp = clientIpFrom({
      socketAddress: req.socket.remoteAddress,
      forwardedFor: req.headers["x-forwarded-for"],
      trustProxy: env.TRUST_PROXY,
    });
    res.json({ clientIp, expressIp: req.ip, protocol: req.protocol });
  });
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function ask(base: string, forwardedFor: string) {
  const response = await fetch(`${base}/who`, {
    headers: { "X-Forwarded-For": forwardedFor, "X-Forwarded-Proto": "https" },
  });
  const body = (await response.json()) as { clientIp: string; expressIp: string; protocol: string };
  return { ...body, hsts: response.headers.get("strict-transport-security") };
}

describe("TRUST_PROXY as the proxies' addresses", () => {
  it("ignores forwarded headers from anyone who is not a listed proxy", async () => {
    // The app's port reached directly (from 127.0.0.1, which is not in 10.0.0.0/8): a made-up address and https.
    const base = await serverWith("10.0.0.0/8, fd00::/8");
    const answer = await ask(base, "203.0.113.5");
    expect(answer).toEqual({ clientIp: "127.0.0.1", expressIp: "127.0.0.1", protocol: "http", hsts: null });
  });

  it("takes the address the listed proxy saw, never one the client wrote", async () => {
    const base = await serverWith("127.0.0.1");
    const answer = await ask(base, "6.6.6.6, 203.0.113.5");
    expect(answer.clientIp).toBe("203.0.113.5");
    expect(answer.expressIp).toBe("203.0.113.5");
    expect(answer.protocol).toBe("https");
    expect(answer.hsts).toContain("max-age=");
  });

  it("walks past inner proxies in the listed ranges, and stops at the first address outside them", async () => {
    const base = await serverWith("127.0.0.1,10.0.0.0/8");
    expect((await ask(base, "6.6.6.6, 203.0.113.5, 10.1.2.3")).clientIp).toBe("203.0.113.5");
    // A client that writes a proxy's address first gains nothing: the hop outside the ranges is still the client.
    expect((await ask(base, "10.9.9.9, 203.0.113.5, 10.1.2.3")).clientIp).toBe("203.0.113.5");
  });

  it("keeps the numeric form: TRUST_PROXY=1 is one proxy, whoever connects", async () => {
    const base = await serverWith("1");
    const answer = await ask(base, "6.6.6.6, 203.0.113.5");
    expect(answer.clientIp).toBe("203.0.113.5");
    expect(answer.expressIp).toBe("203.0.113.5");
    expect(answer.hsts).toContain("max-age=");
  });
});
