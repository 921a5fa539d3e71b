import type { ServerResponse } from "node:http";
import type { RequestHandler } from "express";

/**
 * An answer that sets a cookie is never kept by a shared cache (ADR 068): a
 * CDN or proxy that kept a first visit's page with its `Set-Cookie:
 * bodima_vid=…` would hand that one visitor id (and so one shortlist) to
 * everyone it serves the copy to. The page cache in this process may still
 * answer with a page's body; the cookie's answer says `private, no-store`.
 */
const PRIVATE_CACHE_CONTROL = "private, no-store";

/** Whether a Cache-Control value already keeps the answer out of shared caches. */
function isPrivateCacheControl(value: unknown): boolean {
  return typeof value === "string" && /\b(?:private|no-store)\b/i.test(value);
}

/** The Cache-Control an answer may carry, given whether it sets a cookie. */
export function cacheControlFor(control: string, setsCookie: boolean): string {
  return setsCookie && !isPrivateCacheControl(control) ? PRIVATE_CACHE_CONTROL : control;
}

/**
 * For everything Express answers: just before the headers go out, a response
 * that sets a cookie and says nothing private is made private, whichever
 * route, loader, action or view counter set the cookie. (A page-cache hit,
 * answered before Express, gets the same rule in sendCachedPage.)
 */
export function keepCookieResponsesPrivate(): RequestHandler {
  return (_req, res, next) => {
    const writeHead = res.writeHead as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      if (this.hasHeader("set-cookie"))
        this.setHeader("Cache-Control", cacheControlFor(String(this.getHeader("cache-control") ?? ""), true));
      return writeHead.apply(this, args);
    } as typeof res.writeHead;
    next();
  };
}
