import type { MiddlewareFunction } from "react-router";

/** The response with this Cache-Control (a Response with immutable headers, such as a redirect, is copied). */
export function withCacheControl(response: Response, value: string): Response {
  try {
    response.headers.set("Cache-Control", value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set("Cache-Control", value);
    return copy;
  }
}

/**
 * Route middleware for private pages (ADR 016): the dashboard, admin,
 * login, sign-up and password-reset pages answer `Cache-Control: no-store`,
 * their documents and their `.data` requests alike, signed in or not, so no
 * browser, proxy or shared computer keeps a copy. It sits on the route, not on
 * URL patterns, so every spelling of a URL that reaches the route is covered;
 * the anonymous page cache refuses no-store responses too (server/pages.ts).
 */
export const noStore: MiddlewareFunction<Response> = async (_args, next) => withCacheControl(await next(), "no-store");
