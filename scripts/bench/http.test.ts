import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { hasSessionCookie } from "../../app/auth/session-cookie";
import { hasSignedSessionCookie } from "../../app/auth/session-signature.server";
import { findStylesheetPath, getRaw, uncachedHeaders } from "./http.ts";

describe("getRaw", () => {
  /** A server that closes a kept-alive connection as its second request arrives, as at its idle time-out. */
  async function closingServer() {
    const served = new WeakMap<object, number>();
    let connections = 0;
    const server = http.createServer((req, res) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      if (n > 1) req.socket.destroy();
      else res.end("ok");
    });
    server.on("connection", () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return { url, server, connections: () => connections };
  }

  it("asks again on a new connection when a reused one is reset before any answer, once", async () => {
    const { url, server, connections } = await closingServer();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await getRaw(url, {}, agent)).status).toBe(200);
      expect((await getRaw(url, {}, agent)).body.toString()).toBe("ok");
      expect(connections()).toBe(2);
    } finally {
      agent.destroy();
      server.close();
    }
  });

  it("does not hide a reset of a new connection", async () => {
    const server = http.createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      await expect(getRaw(url, {})).rejects.toMatchObject({ code: "ECONNRESET" });
    } finally {
      server.close();
    }
  });
});

describe("findStylesheetPath", () => {
  it("finds the root stylesheet whatever the attribute order", () => {
    expect(findStylesheetPath('<link nonce="x" rel="stylesheet" href="/assets/app-DYIxwc1P.css"/>')).toBe(
      "/assets/app-DYIxwc1P.css",
    );
    expect(findStylesheetPath('<link href="/assets/app-a_b.css" rel=stylesheet>')).toBe("/assets/app-a_b.css");
    expect(findStylesheetPath('<style id="site-css" data-href="/assets/app-c.css" nonce="n">body{}</style>')).toBe(
      "/assets/app-c.css",
    );
  });

  it("ignores preloads, other stylesheets and pages without one", () => {
    const html =
      '<link rel="modulepreload" href="/assets/root-x.js"/><link rel="preload" href="/assets/app-y.css"/><link rel="stylesheet" href="/assets/browse-z.css"/>';
    expect(findStylesheetPath(html)).toBeNull();
  });
});

describe("uncachedHeaders", () => {
  it("carry a session cookie signed with the server's secret, so the page cache never answers them", () => {
    const secret = "b".repeat(64);
    const { cookie } = uncachedHeaders(secret);
    expect(hasSessionCookie(cookie)).toBe(true);
    expect(hasSignedSessionCookie(cookie, secret)).toBe(true);
    expect(hasSignedSessionCookie(cookie, "c".repeat(64))).toBe(false);
  });
});
