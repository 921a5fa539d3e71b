import http from "node:http";
import type { AddressInfo } from "node:net";
import type { KyselyPlugin } from "kysely";
import { afterEach, expect, it } from "vitest";
import { createHealthChecks } from "../../server/health";
import { describeEachDatabase } from "../test-db";

// /readyz is public and each check costs a database query (and a Redis ping and an S3 request
// where configured): a flood of it must not become a flood of queries (server/health.ts).

let server: http.Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

describeEachDatabase("/readyz", (ctx) => {
  /** /readyz over HTTP, on a database handle that counts the queries it runs. */
  async function serveReadyz(reuseMs?: number) {
    const queries = { n: 0 };
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        queries.n += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    let storageChecks = 0;
    const health = createHealthChecks({
      db: ctx().db.withPlugin(counting),
      storage: {
        check: async () => {
          storageChecks += 1;
        },
      },
      headers: {},
      reuseMs,
    });
    server = http.createServer((req, res) => {
      if (health(req, res)) return;
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/readyz`;
    return { url, queries, storageChecks: () => storageChecks };
  }

  it("two calls within a second run the checks once", async () => {
    const { url, queries, storageChecks } = await serveReadyz();
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe("ready\n");
    const second = await fetch(url);
    expect(second.status).toBe(200);
    expect(second.headers.get("cache-control")).toBe("no-store");
    expect(queries.n).toBe(1);
    expect(storageChecks()).toBe(1);
  });

  it("a flood at once runs the checks once, and they run again once the answer is older than the window", async () => {
    const { url, queries } = await serveReadyz(200);
    const answers = await Promise.all(Array.from({ length: 40 }, () => fetch(url)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(queries.n).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await fetch(url)).status).toBe(200);
    expect(queries.n).toBe(2);
  });
});
