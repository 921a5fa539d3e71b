import http from "node:http";
import { BROWSER_HEADERS, getRaw } from "../bench/http.ts";

/**
 * The soak's HTTP client: every request as a browser sends it, from an
 * address the server takes from X-Forwarded-For (the soak starts it with
 * TRUST_PROXY=127.0.0.1, as behind nginx), timed to its last byte.
 */

export type Answer = {
  status: number;
  ms: number;
  headers: Headers | http.IncomingHttpHeaders;
  body: string;
  /** Why there was no answer: "no answer in 10 s", or the socket error's code (a reset, a refusal). */
  reason?: string;
};

/** What a failed request's error says: a time-out, or the socket's error code. */
function reasonOf(error: unknown): string {
  if (error instanceof Error && (error.message === "timed out" || error.name === "TimeoutError"))
    return `no answer in ${TIMEOUT_MS / 1000} s`;
  const code = (error as { code?: string; cause?: { code?: string } } | null)?.code;
  return code ?? (error as { cause?: { code?: string } } | null)?.cause?.code ?? "no answer";
}

/** No answer at all (refused, reset, timed out). */
export const NO_ANSWER = 0;
const TIMEOUT_MS = 10_000;

export function createClient(base: string, maxSockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const origin = new URL(base).origin;

  /** A page or API GET with no cookies, as a new visitor or a crawler; the body stays compressed. */
  async function get(path: string, ip: string): Promise<Answer> {
    const started = performance.now();
    try {
      const answer = await withTimeout(getRaw(base + path, { ...BROWSER_HEADERS, "x-forwarded-for": ip }, agent));
      return { status: answer.status, ms: performance.now() - started, headers: answer.headers, body: "" };
    } catch (error) {
      return { status: NO_ANSWER, ms: performance.now() - started, headers: {}, body: "", reason: reasonOf(error) };
    }
  }

  /**
   * A form post or a signed-in GET as the browser makes it without JavaScript: the page's
   * Origin, the visitor's cookies, redirects not followed (the 3xx is the acknowledgement).
   */
  async function send(
    path: string,
    ip: string,
    options: { body?: URLSearchParams | FormData; cookie?: string; read?: boolean } = {},
  ): Promise<Answer> {
    const started = performance.now();
    try {
      const response = await fetch(base + path, {
        method: options.body ? "POST" : "GET",
        redirect: "manual",
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: {
          ...BROWSER_HEADERS,
          "x-forwarded-for": ip,
          ...(options.body ? { origin } : {}),
          ...(options.cookie ? { cookie: options.cookie } : {}),
        },
        body: options.body,
      });
      // Read to the end either way: the time is to the last byte, and the connection is then free.
      const body = options.read ? await response.text() : "";
      if (!options.read) await response.arrayBuffer();
      return { status: response.status, ms: performance.now() - started, headers: response.headers, body };
    } catch (error) {
      const ms = performance.now() - started;
      return { status: NO_ANSWER, ms, headers: new Headers(), body: "", reason: reasonOf(error) };
    }
  }

  return { get, send, close: () => agent.destroy() };
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timed out")), TIMEOUT_MS);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The cookies a response sets, as the `Cookie` header a browser would send back. */
export function cookiesOf(headers: Headers | http.IncomingHttpHeaders): string {
  const list = headers instanceof Headers ? headers.getSetCookie() : [];
  return list.map((c) => c.split(";")[0]).join("; ");
}

export function locationOf(answer: Answer): string {
  return answer.headers instanceof Headers ? (answer.headers.get("location") ?? "") : "";
}

/**
 * Addresses of the soak's visitors: `count` of them, four to a /24 network,
 * as many people share a mobile operator's or a campus network. Each draws
 * few enough pages that no per-address limit is met (ADR 094).
 */
export function visitorAddresses(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const network = Math.floor(i / 4);
    return `10.${Math.floor(network / 250) % 250}.${network % 250}.${10 + (i % 4) * 50}`;
  });
}

/** An address in another /24 network each call, 4,000 before one comes again (reports are limited per network). */
export function createNetworkSource() {
  let n = 0;
  return () => {
    const network = n++;
    return `172.${16 + (Math.floor(network / 250) % 16)}.${network % 250}.${1 + (network % 200)}`;
  };
}
