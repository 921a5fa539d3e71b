import { createHmac } from "node:crypto";
import http from "node:http";

/** What a browser sends with every request that matters to the server: it compresses by Accept-Encoding. */
export const BROWSER_HEADERS = {
  "accept-encoding": "br, gzip",
  "user-agent":
    "Mozilla/5.0 (Linux; Android 14; SM-A155F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36",
} as const;

/**
 * Headers with a session cookie this site signed (better-auth's
 * `session_token` under our AUTH_COOKIE_PREFIX, HMAC-signed with
 * SESSION_SECRET) for a token that is no session. The page cache never
 * answers a page request that carries one, and the page renders signed out:
 * the search shapes are timed in the database, not in the cache. A made-up,
 * unsigned cookie no longer does that (server/pages.ts).
 */
export function uncachedHeaders(sessionSecret: string) {
  const signature = createHmac("sha256", sessionSecret).update("bench").digest("base64");
  return { ...BROWSER_HEADERS, cookie: `bodima.session_token=${encodeURIComponent(`bench.${signature}`)}` };
}

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/**
 * A GET whose body stays as sent (still compressed), unlike fetch, which decodes it.
 * Fails after `timeoutMs` without an answer: a harness must not wait for ever.
 * A kept-alive connection the server closed just as the request went out (its idle
 * time-out) is tried once more on a new one, as browsers and nginx do for a GET.
 */
export function getRaw(
  url: string,
  headers: Record<string, string>,
  agent?: http.Agent,
  timeoutMs = 30_000,
  retried = false,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.get(url, { headers, agent }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (!retried && !answered && request.reusedSocket && error.code === "ECONNRESET")
        getRaw(url, headers, agent, timeoutMs, true).then(resolve, reject);
      else reject(error);
    });
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
  });
}

/**
 * The app's main stylesheet, the first in every page's head (app/components/stylesheet.tsx):
 * inlined as `<style data-href="/assets/app-….css">` in production, else `<link rel="stylesheet" href="…">`.
 */
export function findStylesheetPath(html: string): string | null {
  for (const [tag] of html.matchAll(/<(?:link|style)\b[^>]*>/gi)) {
    const inlined = /^<style\b/i.test(tag);
    if (!inlined && !/\brel=["']?stylesheet\b/i.test(tag)) continue;
    const href = new RegExp(`\\b${inlined ? "data-href" : "href"}=["']?(\\/assets\\/app-[^"'\\s>]+\\.css)`, "i").exec(
      tag,
    )?.[1];
    if (href) return href;
  }
  return null;
}
