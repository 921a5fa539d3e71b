import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import fc from "fast-check";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "../../app/auth/auth.server";
import { createOwnerAccount } from "../../app/models/account.server";
import { viewerIdentity } from "../../app/models/view-tracking.server";
import { MAX_BODY_BYTES } from "../../app/security/body-limit.server";
import { errorHandler, securityMiddleware } from "../../app/security/middleware.server";
import { describeEachDatabase } from "../test-db";

// The Express layer server.ts and server/app.ts put in front of everything:
// a real server on a free port with a stand-in route behind the middleware.

const SITE = "http://bodima.test";
let base = "";
let server: http.Server;
let routeCalls = 0;

function appFor(options: { siteUrl: string; trustProxy?: boolean }) {
  const app = express();
  const logger = pino({ level: "silent" });
  app.use(
    securityMiddleware({
      siteUrl: options.siteUrl,
      siteName: "Bodima",
      development: false,
      trustProxy: options.trustProxy ?? false,
      logger,
    }),
  );
  app.use(express.static(new URL("../../public", import.meta.url).pathname, { index: false }));
  app.get("/page", (_req, res) => res.type("html").send(`<p>nonce ${res.locals.cspNonce}</p>`));
  app.get("/boom", () => {
    throw new Error("secret detail at /work/main/app/x.ts:12");
  });
  app.get("/item/:id", (req, res) => res.send(req.params.id));
  app.all("/form", (_req, res) => {
    routeCalls++;
    res.type("text").send("route ran");
  });
  // Stand-ins for the routes that take files (the listing form, the photo upload) and some that do not.
  for (const path of [
    "/dashboard/listings/new",
    "/dashboard/listings/:id/edit",
    "/dashboard/photos",
    "/contact",
    "/login",
    "/signup",
    "/listing/:slug/report",
  ]) {
    app.all([path, `${path}.data`], (_req, res) => {
      routeCalls++;
      res.type("text").send("route ran");
    });
  }
  // React Router's catch-all route answers every other path in the real app.
  app.use((_req, res) => {
    res.status(404).type("text").send("not found");
  });
  app.use(errorHandler({ siteName: "Bodima", logger }));
  return app;
}

async function listen(app: express.Express): Promise<[http.Server, string]> {
  const s = http.createServer(app);
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return [s, `http://127.0.0.1:${(s.address() as AddressInfo).port}`];
}

/** A raw request (fetch forbids setting Origin, Sec-Fetch-Site and Host). */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const headers = { ...options.headers };
    if (options.body !== undefined && !headers["Transfer-Encoding"])
      headers["Content-Length"] ??= String(Buffer.byteLength(options.body));
    const req = http.request(url, { method: options.method ?? "GET", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

beforeAll(async () => {
  [server, base] = await listen(appFor({ siteUrl: SITE }));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("security headers", () => {
  it("carry a CSP with a fresh nonce and no unsafe-inline script on every page", async () => {
    const first = await raw(`${base}/page`);
    const second = await raw(`${base}/page`);
    const csp = String(first.headers["content-security-policy"]);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    expect(first.body).toContain(`nonce ${nonce}`);
    expect(String(second.headers["content-security-policy"])).not.toContain(nonce);
    const directives = Object.fromEntries(csp.split(/;\s*/).map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));
    expect(directives["script-src"]).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(directives["object-src"]).toEqual(["'none'"]);
    expect(directives["base-uri"]).toEqual(["'self'"]);
    expect(directives["form-action"]).toEqual(["'self'"]);
    expect(directives["frame-ancestors"]).toEqual(["'none'"]);
    // Images from the site and the map's one tile server (MAP_TILE_URL, ADR 053).
    expect(directives["img-src"]).toEqual(["'self'", "data:", "blob:", "https://tile.openstreetmap.org"]);
    expect(directives["connect-src"]).toEqual(["'self'"]);
    expect(first.headers["x-content-type-options"]).toBe("nosniff");
    expect(first.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(first.headers["permissions-policy"]).toContain("camera=()");
    expect(first.headers["permissions-policy"]).toContain("geolocation=()");
    expect(first.headers["x-frame-options"]).toBe("DENY");
    expect(first.headers["x-request-id"]).toMatch(/^[0-9a-f]{8}$/);
  });

  it("are on static files and error answers too", async () => {
    for (const path of ["/favicon.svg", "/boom", "/item/%E0%A4%A"]) {
      const res = await raw(`${base}${path}`);
      expect(res.headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
      expect(res.headers["x-content-type-options"], path).toBe("nosniff");
    }
  });

  it("send HSTS only when the site is https or the proxy says so", async () => {
    expect((await raw(`${base}/page`)).headers["strict-transport-security"]).toBeUndefined();
    const [httpsSite, httpsBase] = await listen(appFor({ siteUrl: "https://bodima.lk" }));
    const [proxied, proxiedBase] = await listen(appFor({ siteUrl: SITE, trustProxy: true }));
    try {
      expect((await raw(`${httpsBase}/page`)).headers["strict-transport-security"]).toBe(
        "max-age=31536000; includeSubDomains",
      );
      expect(
        (await raw(`${proxiedBase}/page`, { headers: { "X-Forwarded-Proto": "https" } })).headers[
          "strict-transport-security"
        ],
      ).toContain("max-age=");
      expect((await raw(`${proxiedBase}/page`)).headers["strict-transport-security"]).toBeUndefined();
      // Without TRUST_PROXY the header is anyone's to send.
      expect(
        (await raw(`${base}/page`, { headers: { "X-Forwarded-Proto": "https" } })).headers["strict-transport-security"],
      ).toBeUndefined();
    } finally {
      httpsSite.close();
      proxied.close();
    }
  });
});

describe("foreign origins", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE"])(
    "%s from another site is refused with 403 before the route runs",
    async (method) => {
      const before = routeCalls;
      const res = await raw(`${base}/form`, {
        method,
        headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
        body: "a=1",
      });
      expect(res.status).toBe(403);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.body).toContain("This form was sent from another website, so it was not accepted.");
      expect(routeCalls).toBe(before);
    },
  );

  it("answers JSON for the API and JSON requests", async () => {
    const api = await raw(`${base}/api/listings`, { method: "POST", headers: { Origin: "https://evil.example" } });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body)).toMatchObject({ error: expect.stringContaining("another website") });
    const json = await raw(`${base}/form`, {
      method: "POST",
      headers: { Origin: "null", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(403);
    expect(JSON.parse(json.body).requestId).toMatch(/^[0-9a-f]{8}$/);
  });

  it("refuses Sec-Fetch-Site: cross-site even without Origin", async () => {
    const res = await raw(`${base}/form`, { method: "POST", headers: { "Sec-Fetch-Site": "cross-site" }, body: "" });
    expect(res.status).toBe(403);
  });

  it("lets our own origin, same-origin fetches and Origin-less clients through to the route", async () => {
    const host = new URL(base).host;
    for (const headers of [
      { Origin: SITE },
      { Origin: base, "Sec-Fetch-Site": "same-origin" },
      { Host: host },
      { "Sec-Fetch-Site": "same-site" },
    ] as Record<string, string>[]) {
      const res = await raw(`${base}/form`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
        body: "a=1",
      });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.body).toBe("route ran");
    }
  });

  it("does not judge GET requests by their origin", async () => {
    expect(
      (await raw(`${base}/form`, { headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" } }))
        .status,
    ).toBe(200);
  });
});

describe("body limits", () => {
  it("refuse a form or JSON body over the cap with 413 before the route runs", async () => {
    const before = routeCalls;
    const big = `a=${"x".repeat(MAX_BODY_BYTES)}`;
    const res = await raw(`${base}/form`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: big,
    });
    expect(res.status).toBe(413);
    expect(res.body).toContain("larger than this page accepts");
    const json = await raw(`${base}/api/x`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ a: big }),
    });
    expect(json.status).toBe(413);
    expect(JSON.parse(json.body).error).toContain("larger than this page accepts");
    expect(routeCalls).toBe(before);
  });

  it("let a body at the cap through, and multipart up to its own larger cap", async () => {
    const atCap = `a=${"x".repeat(MAX_BODY_BYTES - 2)}`;
    expect(
      (
        await raw(`${base}/form`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: atCap,
        })
      ).status,
    ).toBe(200);
    const boundary = "----x";
    const file = Buffer.alloc(1024 * 1024, 1);
    const multipart = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await raw(`${base}/dashboard/photos`, {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body: multipart,
    });
    expect(res.status).toBe(200);
    const declaredHuge = await raw(`${base}/dashboard/photos`, {
      method: "POST",
      headers: {
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": String(21 * 1024 * 1024),
      },
    });
    expect(declaredHuge.status).toBe(413);
  });

  it("refuse a streamed body without a length with 411", async () => {
    const res = await raw(`${base}/form`, {
      method: "POST",
      headers: { "Transfer-Encoding": "chunked", "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(res.status).toBe(411);
  });

  it("refuse a page post that is not a form (it would fail in request.formData()) with 415", async () => {
    const before = routeCalls;
    for (const headers of [
      { "Content-Type": "text/plain" },
      { "Content-Type": "application/json" },
      { "Content-Type": "multipart/form-data" },
      {},
    ] as Record<string, string>[]) {
      const res = await raw(`${base}/form`, { method: "POST", headers, body: "a=1" });
      expect(res.status, JSON.stringify(headers)).toBe(415);
      expect(res.body).toContain("accepts only form submissions");
    }
    expect(routeCalls).toBe(before);
    // An empty POST without a type (a fetch with no body) and JSON to the API pass.
    expect((await raw(`${base}/form`, { method: "POST" })).status).toBe(200);
    expect(
      (
        await raw(`${base}/updateViewCount`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(404);
  });
});

describe("multipart only where files go", () => {
  const boundary = "----bodima";
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\nx@example.lk\r\n--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\nxxxx\r\n--${boundary}--\r\n`;
  const post = (path: string, headers: Record<string, string> = {}) =>
    raw(`${base}${path}`, {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, ...headers },
      body,
    });

  it("refuses a multipart body with 415 and a clear message on every other page, before the route reads it", async () => {
    const before = routeCalls;
    for (const path of [
      "/contact",
      "/login",
      "/signup",
      "/listing/a-room-1/report",
      "/listing/a-room-1/report.data",
      "/form",
      "/dashboard/photos/abc/delete",
      "/dashboard/listings/new/x",
      "/dashboard/photos.json",
    ]) {
      const res = await post(path);
      expect(res.status, path).toBe(415);
      expect(res.body, path).toContain("does not accept files");
      expect(res.headers.connection, path).toBe("close");
    }
    // The API takes JSON and now also refuses multipart, answered as JSON.
    const api = await post("/updateViewCount");
    expect(api.status).toBe(415);
    expect(JSON.parse(api.body).error).toContain("does not accept files");
    // Other multipart spellings are refused alike.
    expect(
      (
        await raw(`${base}/contact`, {
          method: "POST",
          headers: { "Content-Type": `Multipart/Form-Data; boundary=${boundary}` },
          body,
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await raw(`${base}/contact`, {
          method: "POST",
          headers: { "Content-Type": `multipart/mixed; boundary=${boundary}` },
          body,
        })
      ).status,
    ).toBe(415);
    expect(routeCalls).toBe(before);
  });

  it("lets the listing form (new and edit, with or without JavaScript) and the photo upload take files", async () => {
    for (const path of [
      "/dashboard/listings/new",
      "/dashboard/listings/new.data",
      "/dashboard/listings/42/edit",
      "/dashboard/listings/42/edit.data",
      "/dashboard/photos",
      "/dashboard/photos/",
    ]) {
      const res = await post(path);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toBe("route ran");
    }
    // The pages that refuse files still take their ordinary form posts.
    const form = await raw(`${base}/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(form.status).toBe(200);
  });
});

describe("errors", () => {
  it("answer a short page with the request id and never a stack trace", async () => {
    const res = await raw(`${base}/boom`);
    expect(res.status).toBe(500);
    expect(res.body).toContain("Something went wrong");
    expect(res.body).toContain(`Reference: ${res.headers["x-request-id"]}`);
    expect(res.body).not.toMatch(/secret detail|\.ts:\d+|at \w+ \(|node_modules/);
  });

  it("keep a client error's status (a malformed address) without details", async () => {
    const res = await raw(`${base}/item/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(res.body).toContain("could not be understood");
    expect(res.body).not.toMatch(/URIError|at \w+ \(|node_modules/);
  });

  it("answer a Host header no URL can carry with 400, not a crash", async () => {
    const res = await raw(`${base}/page`, { headers: { Host: "bad host" } });
    expect(res.status).toBe(400);
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(res.body).toContain("could not be understood");
  });
});

describe("hostile headers", () => {
  const printable = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: 60,
  });
  const headerValue = fc.oneof(
    printable,
    fc.constantFrom(
      "null",
      "https://evil.example",
      SITE,
      "cross-site",
      "same-origin",
      "multipart/form-data; boundary=",
      "multipart/form-data; boundary=x",
      "application/json",
      "-1",
      "1e9",
      "99999999999999999999",
      "",
    ),
  );

  it("never answer 5xx and always carry the CSP, whatever the method and headers", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
        fc.constantFrom(
          "/page",
          "/form",
          "/api/x",
          "/updateViewCount",
          "/favicon.svg",
          "/item/%E0%A4%A",
          "/%00",
          "/a/../../etc/passwd",
          "/dashboard/photos",
          "/dashboard/listings/%2e%2e/edit.data",
          "/contact",
        ),
        fc.record(
          {
            origin: headerValue,
            "sec-fetch-site": headerValue,
            host: headerValue,
            "content-type": headerValue,
            "x-forwarded-proto": headerValue,
          },
          { requiredKeys: [] },
        ),
        fc.string({ maxLength: 200 }),
        async (method, path, headers, payload) => {
          const hasBody = !["GET", "HEAD"].includes(method);
          const res = await raw(`${base}${path}`, {
            method,
            headers: headers as Record<string, string>,
            body: hasBody ? payload : undefined,
          });
          expect(res.status).toBeLessThan(500);
          expect(res.headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
          expect(res.body).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/);
        },
      ),
      { seed: 20261122, numRuns: 150 },
    );
  });
});

/** Attributes of each Set-Cookie, lower-cased, by cookie name. */
function cookieAttributes(headers: Headers): Map<string, string[]> {
  return new Map(
    headers.getSetCookie().map((line) => {
      const [pair, ...attributes] = line.split(";").map((p) => p.trim());
      return [pair.split("=")[0], attributes.map((a) => a.toLowerCase())];
    }),
  );
}

describeEachDatabase("cookies", (ctx) => {
  for (const siteUrl of ["http://127.0.0.1:3999", "https://bodima.lk"]) {
    const https = siteUrl.startsWith("https:");
    it(`session cookies are HttpOnly and SameSite=Lax${https ? ", Secure and __Secure- on an https site" : ""}`, async () => {
      const { db } = ctx();
      const email = `cookie-${crypto.randomUUID().slice(0, 8)}@example.lk`;
      await createOwnerAccount(db, { name: "Cookie", email, phone: "0771234567", password: "Secret-pass1" });
      const auth = createAuth({ db, siteUrl, siteName: "Bodima", secret: "z".repeat(64) });
      const { headers } = await auth.api.signInEmail({
        body: { email, password: "Secret-pass1" },
        headers: new Headers({ origin: siteUrl }),
        returnHeaders: true,
      });
      const cookies = cookieAttributes(headers);
      const session = [...cookies.keys()].find((name) => name.endsWith("bodima.session_token"));
      expect(session, [...cookies.keys()].join()).toBe(
        https ? "__Secure-bodima.session_token" : "bodima.session_token",
      );
      for (const [name, attributes] of cookies) {
        expect(attributes, name).toContain("httponly");
        expect(attributes, name).toContain("samesite=lax");
        expect(attributes.includes("secure"), name).toBe(https);
      }
    });

    it(`view-tracking cookies follow the same rule${https ? " (Secure on https)" : ""}`, () => {
      const { headers } = viewerIdentity(new Request(`${siteUrl}/listing/x`), {
        secure: https,
        visitorSecret: "v".repeat(64),
      });
      const cookies = cookieAttributes(headers);
      expect(cookies.size).toBe(2);
      for (const [name, attributes] of cookies) {
        expect(attributes, name).toContain("httponly");
        expect(attributes, name).toContain("samesite=lax");
        expect(attributes.includes("secure"), name).toBe(https);
      }
    });
  }
});
