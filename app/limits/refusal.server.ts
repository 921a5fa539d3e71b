import type { LimitDecision } from "./rate-limit.server";

/**
 * When one request is under several limits (a login: per account and per IP),
 * the refusal to answer with: the one that lasts longest, or null when all allow.
 */
export async function longestRefusal(
  decisions: Promise<LimitDecision>[],
): Promise<{ retryAfterSeconds: number } | null> {
  let worst: { retryAfterSeconds: number } | null = null;
  for (const decision of await Promise.all(decisions)) {
    if (!decision.ok && decision.retryAfterSeconds > (worst?.retryAfterSeconds ?? 0)) worst = decision;
  }
  return worst;
}

/**
 * A route's `headers` export for forms that can be refused: React Router sends
 * an action's headers with the page only through it, so a 429 page (a form
 * posted without JavaScript) keeps its Retry-After and stays uncached.
 */
export function refusalHeaders({
  actionHeaders,
  loaderHeaders,
}: {
  actionHeaders: Headers;
  loaderHeaders: Headers;
}): Headers {
  const headers = new Headers(loaderHeaders);
  for (const name of ["Retry-After", "Cache-Control"]) {
    const value = actionHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
}
