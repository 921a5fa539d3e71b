import type { MiddlewareFunction } from "react-router";
import { withCacheControl } from "~/security/no-store.server";
import { hasSessionCookie } from "./session-cookie";

/**
 * For the shortlist (ADR 088, amending 054): one browser's own list, which that browser may keep
 * (its service worker keeps it for offline use) but no shared cache may, and which is asked again
 * every time it is shown. With a session cookie it is `no-store` like every signed-in page, so no
 * copy showing who is signed in is ever kept.
 */
export const thisBrowserOnly: MiddlewareFunction<Response> = async ({ request }, next) =>
  withCacheControl(await next(), hasSessionCookie(request.headers.get("cookie")) ? "no-store" : "private, no-cache");
