import pino from "pino";
import { RouterContextProvider } from "react-router";
import type { DB } from "../app/db/db.server";
import { parseEnv } from "../app/env.server";
import { createMemoryStore, createRateLimiter, type LimitName, type LimitRule } from "../app/limits/rate-limit.server";
import { phoneConfirmationFor, type RequestInfo, requestContext } from "../app/services.server";
import type { PhotoStorage } from "../app/storage/storage.server";

export const TEST_SITE = "http://127.0.0.1:3999";

export type TestContextOptions = {
  db: DB;
  env?: Record<string, string>;
  clientIp?: string;
  storage?: PhotoStorage;
  limits?: Partial<Record<LimitName, LimitRule>>;
  /** Share one limiter between calls (a fresh one per context otherwise). */
  limiter?: RequestInfo["limiter"];
};

/** A full per-request context as server/app.ts builds it, for calling loaders and actions directly. */
export function testContext(options: TestContextOptions): RouterContextProvider {
  const silent = pino({ level: "silent" });
  const services = {
    db: options.db,
    env: parseEnv({ SITE_URL: TEST_SITE, NODE_ENV: "test", ...options.env }),
    logger: silent,
    secrets: { sessionSecret: "y".repeat(64), visitorSalt: "s".repeat(32) },
    limiter: options.limiter ?? createRateLimiter(createMemoryStore(), options.limits),
  };
  const info: RequestInfo = {
    ...services,
    dialect: "sqlite",
    log: silent,
    storage: options.storage ?? (undefined as unknown as PhotoStorage),
    phones: phoneConfirmationFor(services),
    requestId: "test",
    clientIp: options.clientIp ?? "127.0.0.1",
    locale: "en",
  };
  const context = new RouterContextProvider();
  context.set(requestContext, info);
  return context;
}

/** An action's answer, plain value or data() with a status, read alike. */
export function unwrapResult(result: unknown): { status: number; body: Record<string, unknown> } {
  if (result instanceof Response) return { status: result.status, body: {} };
  if (result && typeof result === "object" && "init" in result && "data" in result) {
    const wrapped = result as { data: Record<string, unknown>; init: { status?: number } | null };
    return { status: wrapped.init?.status ?? 200, body: wrapped.data };
  }
  return { status: 200, body: result as Record<string, unknown> };
}

/** The headers an action answered with (a Response's, or those given to data()). */
export function resultHeaders(result: unknown): Headers {
  if (result instanceof Response) return result.headers;
  if (result && typeof result === "object" && "init" in result) {
    return new Headers((result as { init: { headers?: HeadersInit } | null }).init?.headers);
  }
  return new Headers();
}
