import type { IncomingMessage, ServerResponse } from "node:http";
import { t } from "../app/i18n";
import { LOCALES, type Locale, localeOfPath } from "../app/i18n/locales";
import { inLocale } from "../app/i18n/request-locale.server";
import { contentSecurityPolicy, cspHeaderName } from "../app/security/headers.server";
import { inlineHashes } from "../app/security/inline-hashes.server";
import { problemHtml, wantsJson } from "../app/security/middleware.server";

/**
 * The 503 of a request the render queue refused (ADR 093), answered before
 * Express: under a crowd it is most of what the server writes, so it is made
 * once per language and written as it is (tens of microseconds, not the
 * hundreds a request through Express costs). The same short page every refusal
 * uses, in the URL's language, or the same sentence as JSON for the API and
 * clients that ask for JSON; `Retry-After` says when to come back.
 */
type Prepared = { body: Buffer; head: (string | number)[] };

/**
 * How long the connection of a refused request is not read from: its answer goes at once, but
 * a client that asks again at once (a bot, a load generator) waits this long before it is even
 * heard. Without it, 400 connections asking again at once made the server spend most of its CPU
 * on refusals and render a fifth of what it could (ADR 093). A new connection is not held.
 */
export const HOLD_AFTER_REFUSAL_MS = 500;

export function createBusyAnswers({ siteName, headers }: { siteName: string; headers: Record<string, string> }) {
  function prepare(body: string, type: string, extra: Record<string, string>): Prepared {
    const bytes = Buffer.from(body);
    const all: Record<string, string | number> = {
      ...headers,
      ...extra,
      "Content-Type": type,
      "Content-Length": bytes.length,
      "Cache-Control": "no-store",
    };
    return { body: bytes, head: Object.entries(all).flat() };
  }

  const answers = Object.fromEntries(
    LOCALES.map((locale) => {
      const { html, text } = inLocale(locale, () => {
        const title = t("security.busy.title");
        const sentence = t("security.busy.text");
        return { html: problemHtml({ locale, title, text: sentence, siteName }), text: sentence };
      });
      // The page's one inline style is allowed by its hash: there is no request to give a nonce to.
      const csp = { [cspHeaderName()]: contentSecurityPolicy(inlineHashes(html)) };
      return [
        locale,
        {
          html: prepare(html, "text/html; charset=utf-8", csp),
          json: prepare(JSON.stringify({ error: text }), "application/json; charset=utf-8", {}),
        },
      ];
    }),
  ) as Record<Locale, { html: Prepared; json: Prepared }>;

  return function sendBusy(req: IncomingMessage, res: ServerResponse, retryAfterSeconds: number): void {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);
    const answer = answers[localeOfPath(pathname)][wantsJson(pathname, req.headers) ? "json" : "html"];
    res.writeHead(503, [...answer.head, "Retry-After", retryAfterSeconds]);
    res.end(req.method === "HEAD" ? undefined : answer.body);
    holdConnection(res);
  };
}

/** Stops reading the connection's next request for HOLD_AFTER_REFUSAL_MS once this answer is written. */
function holdConnection(res: ServerResponse): void {
  const socket = res.socket;
  if (!socket) return;
  res.once("finish", () => {
    if (socket.destroyed) return;
    socket.pause();
    const timer = setTimeout(() => socket.resume(), HOLD_AFTER_REFUSAL_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  });
}
