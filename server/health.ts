import type { IncomingMessage, ServerResponse } from "node:http";
import type { Redis } from "ioredis";
import { sql } from "kysely";
import type { DB } from "../app/db/db.server";

/**
 * Health endpoints for a process manager or load balancer (docs/operations.md):
 * /healthz answers 200 while the process runs; /readyz 200 when the database
 * (and, once configured, every shared service) answers within 2 s, else 503
 * with what is down. Both are cheap, plain text, never cached, and carry no
 * detail an outsider could use beyond the names of the parts. /readyz is
 * public and its checks are not free (a query, a Redis ping, an S3 request):
 * each process runs them at most once at a time and reuses the answer for
 * `reuseMs` (a second) after, so a flood of /readyz costs one check a second.
 */
export function createHealthChecks(options: {
  db: DB;
  redis?: Redis;
  storage?: { check?: () => Promise<void> };
  headers: Record<string, string>;
  timeoutMs?: number;
  reuseMs?: number;
}) {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const reuseMs = options.reuseMs ?? 1_000;
  const { redis } = options;
  const checks: Record<string, () => Promise<unknown>> = {
    database: () => sql`select 1`.execute(options.db),
    ...(redis ? { redis: () => redis.ping() } : {}),
    ...(options.storage?.check ? { storage: options.storage.check } : {}),
  };

  async function failing(): Promise<string[]> {
    const down: string[] = [];
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error("timeout")), timeoutMs);
        });
        try {
          await Promise.race([check(), timeout]);
        } catch {
          down.push(name);
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return down.sort();
  }

  /** The parts down: the check under way, or the last one for reuseMs after it ended. */
  let last: Promise<string[]> | null = null;
  let running = false;
  let endedAt = 0;
  function downNow(): Promise<string[]> {
    if (last && (running || performance.now() - endedAt < reuseMs)) return last;
    running = true;
    last = failing().finally(() => {
      running = false;
      endedAt = performance.now();
    });
    return last;
  }

  function answer(res: ServerResponse, status: number, body: string, head: boolean) {
    res.writeHead(status, {
      ...options.headers,
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Length": Buffer.byteLength(body),
    });
    res.end(head ? undefined : body);
  }

  /** Answers /healthz and /readyz (GET or HEAD); false for every other request. */
  return function serve(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? "";
    if (url !== "/healthz" && url !== "/readyz") return false;
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const head = req.method === "HEAD";
    if (url === "/healthz") {
      answer(res, 200, "ok\n", head);
      return true;
    }
    downNow().then(
      (down) =>
        down.length === 0
          ? answer(res, 200, "ready\n", head)
          : answer(res, 503, `not ready: ${down.join(", ")} down\n`, head),
      () => answer(res, 503, "not ready\n", head),
    );
    return true;
  };
}
