import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach } from "vitest";
import { createPageCache } from "../app/cache/page-cache.server";
import type { DB } from "../app/db/db.server";
import type { ViewCounter } from "../app/models/view-tracking.server";
import { requestContext, type Services } from "../app/services.server";
import { createPages } from "../server/pages";
import { testContext } from "./request-context";

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
  const context = testContext({ db });
  const services = context.get(requestContext) as unknown as Services;
  const pages = createPages({
    services,
    cache: createPageCache({ maxBytes: 8 * 1024 * 1024 }),
    views: noViews,
    handleRequest: render,
    getLoadContext: () => context,
    headers: {},
    invalidationsSeen: () => 0,
    share: () => undefined,
  });
  const app = express();
  for (const handler of middleware) app.use(handler);
  app.use(pages.render);
  const server = http.createServer((req, res) => {
    if (!pages.serveHit(req, res)) app(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
