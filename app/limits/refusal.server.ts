import type { LimitDecision } from "./rate-limit.server";

/** What a person is told when a limit could not be checked (Redis or the cluster's primary is down). */
const UNAVAILABLE_MESSAGE = "common.unavailable" as const;

/**
 * The words and status of a refused attempt: the limit's own message with 429,
 * or, when the limit could not be checked at all (fail closed), that the action
 * is briefly unavailable, with 503: nobody is told they tried too often when
 * they did not.
 */
export function refusalOf<K extends string>(
  decision: { unavailable?: boolean },
  own: K,
): { message: K | typeof UNAVAILABLE_MESSAGE; status: 429 | 503 } {
  return decision.unavailable ? { message: UNAVAILABLE_MESSAGE, status: 503 } : { message: own, status: 429 };
}

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
