import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, expect, it } from "vitest";
import { errorHandler, securityMiddleware } from "../../app/security/middleware.server";
import { logRequests, noteRenderWait } from "../../app/security/request-log.server";
import { createLogger } from "../../app/services.server";

// The request log of server/app.ts (and every other line that names a URL)
// must not hand reset tokens, passwords or codes to whoever reads the logs.

const SITE = "http://bodima.test";
const lines: Record<string, unknown>[] = [];
let server: http.Server;
let base = "";

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger("info", stream);
  const app = express();
  app.use(logRequests(logger));
  app.use(securityMiddleware({ siteUrl: SITE, siteName: "Bodima", development: false, trustProxy: false, logger }));
  app.get("/reset-password", (_req, res) => res.type("html").send("<p>reset</p>"));
  // The link-signed pages, whose token is a path segment (alerts, availability, shared lists).
  app.get(/^\/(?:(?:si|ta)\/)?(?:alerts|availability|s)\//, (_req, res) => res.type("html").send("<p>link</p>"));
  // As server/pages.ts does once the render gate lets a request through.
  app.get("/waited", (_req, res) => {
    noteRenderWait(res, 42);
    res.type("html").send("<p>waited</p>");
  });
  app.get("/boom", () => {
    throw new Error("boom");
  });
  app.use(errorHandler({ siteName: "Bodima", logger }));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Waits for the response's log line (written on 'finish', after the client may have the answer). */
async function logFor(requestId: string): Promise<Record<string, unknown>[]> {
  for (let i = 0; i < 50; i++) {
    const found = lines.filter((l) => l.requestId === requestId);
    if (found.some((l) => l.msg === "request")) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no request line for ${requestId}`);
}

it("redacts a reset token in the request log line and keeps the rest of the URL", async () => {
  const token = "Zk9secretResetToken123";
  const res = await fetch(`${base}/reset-password?token=${token}&lang=en`);
  expect(res.status).toBe(200);
  const logged = await logFor(res.headers.get("x-request-id")!);
  const request = logged.find((l) => l.msg === "request")!;
  expect(request.url).toBe("/reset-password?token=[redacted]&lang=en");
  expect(request.status).toBe(200);
  expect(JSON.stringify(logged)).not.toContain(token);
});

it("redacts passwords and codes in every line that names the URL (refusals and errors too)", async () => {
  const refused = await fetch(`${base}/reset-password?token=Refused-secret-1&password=hunter2hunter2`, {
    method: "POST",
    headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
    body: "a=1",
  });
  expect(refused.status).toBe(403);
  const failed = await fetch(`${base}/boom?code=Code-secret-2`);
  expect(failed.status).toBe(500);
  const logged = [
    ...(await logFor(refused.headers.get("x-request-id")!)),
    ...(await logFor(failed.headers.get("x-request-id")!)),
  ];
  expect(logged.map((l) => l.msg)).toEqual(
    expect.arrayContaining(["foreign origin refused", "unexpected error", "request"]),
  );
  const text = JSON.stringify(logged);
  for (const secret of ["Refused-secret-1", "hunter2hunter2", "Code-secret-2"]) expect(text).not.toContain(secret);
  expect(text).toContain("token=[redacted]&password=[redacted]");
  expect(text).toContain("/boom?code=[redacted]");
});

it("redacts the token in the path of every link-signed page (alerts, availability, shared lists)", async () => {
  const paths = {
    "/alerts/confirm/Al3rtId.C0nfirmSig-1": "/alerts/confirm/[redacted]",
    "/si/alerts/manage/M4nageToken_2": "/si/alerts/manage/[redacted]",
    "/ta/alerts/stop/Al3rtId.St0pSig-3?x=1": "/ta/alerts/stop/[redacted]?x=1",
    "/alerts/unsubscribe/Al3rtId.Unsub-4": "/alerts/unsubscribe/[redacted]",
    "/availability/12.yes.1790000000.Av4ilSig-5": "/availability/[redacted]",
    "/s/sh4redc0de6.data?_routes=routes%2Fshared-shortlist": "/s/[redacted].data?_routes=routes%2Fshared-shortlist",
  };
  for (const [path, logged] of Object.entries(paths)) {
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(200);
    const lines = await logFor(res.headers.get("x-request-id")!);
    expect(lines.find((l) => l.msg === "request")!.url).toBe(logged);
    for (const secret of ["Sig-", "M4nageToken", "1790000000", "sh4redc0de"])
      expect(JSON.stringify(lines)).not.toContain(secret);
  }
});

it("says how long a request waited in the render queue, and says nothing of it for one that never queued", async () => {
  const waited = await fetch(`${base}/waited`);
  const straight = await fetch(`${base}/reset-password`);
  const line = async (res: Response) =>
    (await logFor(res.headers.get("x-request-id")!)).find((l) => l.msg === "request")!;
  expect((await line(waited)).queuedMs).toBe(42);
  expect(await line(straight)).not.toHaveProperty("queuedMs");
});
