import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach } from "vitest";
import { cookieHeaders, getAuth } from "../app/auth/auth.server";
import { createPageCache, type PageCache } from "../app/cache/page-cache.server";
import type { DB } from "../app/db/db.server";
import { createOwnerAccount } from "../app/models/account.server";
import type { ViewCounter } from "../app/models/view-tracking.server";
import { requestContext, type Services } from "../app/services.server";
import { createPages } from "../server/pages";
import type { RenderGateOptions } from "../server/render-gate";
import { TEST_SITE, testContext } from "./request-context";

/**
 * server/app.ts's request path for the page cache's integration tests: a hit
 * before Express, else Express (with `middleware` first) ending in the page
 * renderer, whose React Router is `render`, a stand-in. Views are not counted.
 * Each server started is closed after its test.
 */
const noViews: ViewCounter = {
  seen: () => false,
  add: () => undefined,
  track: () => undefined,
  flush: async () => undefined,
  stop: async () => undefined,
};

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

export async function startPageCacheSite(
  db: DB,
  render: (request: Request) => Promise<Response>,
  middleware: express.RequestHandler[] = [],
): Promise<string> {
  return (await startPageSite(db, render, middleware)).base;
}

/** As startPageCacheSite, with other settings, and the page renderer itself to look into. */
export async function startPageSite(
  db: DB,
  render: (request: Request) => Promise<Response>,
  middleware: express.RequestHandler[] = [],
  options: { renderGate?: Partial<RenderGateOptions>; env?: Record<string, string> } = {},
): Promise<{ base: string; pages: ReturnType<typeof createPages>; cache: PageCache }> {
  const context = testContext({ db, env: options.env });
  const services = context.get(requestContext) as unknown as Services;
  const cache = createPageCache({ maxBytes: 8 * 1024 * 1024 });
  const pages = createPages({
    services,
    cache,
    views: noViews,
    handleRequest: render,
    getLoadContext: () => context,
    headers: {},
    invalidationsSeen: () => 0,
    share: () => undefined,
    renderGate: options.renderGate,
  });
  const app = express();
  for (const handler of middleware) app.use(handler);
  app.use(pages.render);
  const server = http.createServer((req, res) => {
    pages.serve(req, res, { hit: () => undefined, miss: () => pages.admit(req, res, () => app(req, res)) });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pages, cache };
}

/** The name=value pairs a response sets, as a browser would send them back. */
export function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** The Cookie header of a new owner just signed in: a session this site signed. */
export async function signedInCookie(db: DB): Promise<string> {
  const password = "Secret-pass1";
  const email = `cache-${randomBytes(4).toString("hex")}@example.lk`;
  await createOwnerAccount(db, { name: "Cache Owner", email, phone: "0771234567", password });
  const { headers } = await getAuth(testContext({ db }).get(requestContext)).api.signInEmail({
    body: { email, password },
    headers: new Headers({ origin: TEST_SITE }),
    returnHeaders: true,
  });
  return cookiesOf(new Response(null, { headers: cookieHeaders(headers) }));
}
