import { randomUUID } from "node:crypto";
import type { ErrorRequestHandler, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { TrustProxy } from "~/env.server";
import { activeLocale, t } from "~/i18n";
import { type Locale, localePath } from "~/i18n/locales";
import { fromTrustedProxy } from "~/limits/client-ip.server";
import { checkBody, isApiPath } from "./body-limit.server";
import { createNonce, nonceSources, securityHeaders } from "./headers.server";
import { isForeignRequest, isLinkSignedWrite, originOf } from "./origin.server";
import "virtual:catalogue/security";
import { escapeHtml } from "~/lib/escape-html";

export type SecurityOptions = {
  siteUrl: string;
  siteName: string;
  development: boolean;
  /** TRUST_PROXY (env.server.ts); `true` is one proxy, as before it named addresses. */
  trustProxy: boolean | TrustProxy;
  logger: Logger;
};

/**
 * Whether the browser reached us over https. Computed here rather than with
 * req.secure because server.ts's outer Express app does not carry TRUST_PROXY.
 */
function servedOverHttps(req: Request, trustProxy: boolean | TrustProxy): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (!fromTrustedProxy(req.socket.remoteAddress, trustProxy)) return false;
  return (
    String(req.headers["x-forwarded-proto"] ?? "")
      .split(",")[0]
      .trim()
      .toLowerCase() === "https"
  );
}

/** The id that ties a response (X-Request-Id, error pages) to its log lines; made once per request. */
export function requestIdOf(res: Response): string {
  if (typeof res.locals.requestId !== "string") {
    res.locals.requestId = randomUUID().slice(0, 8);
    res.setHeader("X-Request-Id", res.locals.requestId);
  }
  return res.locals.requestId;
}

/** API clients and fetches that asked for JSON get JSON; browsers get a small page. */
export function wantsJson(path: string, headers: { accept?: string; "content-type"?: string }): boolean {
  if (isApiPath(path)) return true;
  const accept = String(headers.accept ?? "");
  const contentType = String(headers["content-type"] ?? "");
  return (
    contentType.includes("application/json") || (accept.includes("application/json") && !accept.includes("text/html"))
  );
}

const PROBLEM_STYLE =
  "body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#0f172a;line-height:1.5}a{color:#0d5f54}.ref{color:#475569;font-size:.875rem}";

/** A short answer with no detail beyond the message and the request id (never a stack). */
export function sendProblem(
  req: Request,
  res: Response,
  { status, title, text, siteName }: { status: number; title: string; text: string; siteName: string },
) {
  const requestId = requestIdOf(res);
  res.status(status);
  res.setHeader("Cache-Control", "no-store");
  if (wantsJson(req.path, req.headers)) {
    res.json({ error: text, requestId });
    return;
  }
  res.type("html").send(
    problemHtml({
      locale: activeLocale(),
      title,
      text,
      siteName,
      nonce: String(res.locals.cspNonce ?? ""),
      reference: t("common.errors.requestId", { requestId }),
    }),
  );
}

/**
 * The short page of a refusal or an error in the active language: a title, a sentence, maybe a
 * reference to quote, and the way home. Its one inline style carries `nonce`, or none (a page
 * prepared once, allowed by its hash).
 */
export function problemHtml({
  locale,
  title,
  text,
  siteName,
  nonce,
  reference,
}: {
  locale: string;
  title: string;
  text: string;
  siteName: string;
  nonce?: string;
  reference?: string;
}): string {
  const ref = reference ? `<p class="ref">${escapeHtml(reference)}</p>` : "";
  const nonceAttribute = nonce ? ` nonce="${escapeHtml(nonce)}"` : "";
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)} | ${escapeHtml(siteName)}</title>` +
    `<style${nonceAttribute}>${PROBLEM_STYLE}</style>` +
    `</head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${ref}` +
    `<p><a href="${localePath(locale as Locale, "/")}">${escapeHtml(t("security.backHome"))}</a></p></main></body></html>`
  );
}

/**
 * Security headers (fresh CSP nonce in res.locals.cspNonce), the foreign-Origin
 * refusal and the body-size caps, before any static file or route. Applied by
 * server.ts ahead of the static files and again by server/app.ts; the second
 * pass sees the nonce and steps aside.
 */
export function securityMiddleware({
  siteUrl,
  siteName,
  development,
  trustProxy,
  logger,
}: SecurityOptions): RequestHandler {
  const siteOrigin = originOf(siteUrl);
  const siteIsHttps = siteUrl.startsWith("https:");
  return (req, res, next) => {
    if (res.locals.cspNonce) return next();
    const requestId = requestIdOf(res);
    const nonce = createNonce();
    res.locals.cspNonce = nonce;
    const https = servedOverHttps(req, trustProxy);
    res.set(securityHeaders({ inline: nonceSources(nonce), https: https || siteIsHttps, development }));
    // A Host no URL can carry would make the router throw: say so as a client error.
    const host = req.get("host");
    if (host !== undefined && !originOf(`http://${host}`))
      return next(Object.assign(new Error("Malformed Host header"), { status: 400 }));

    const ownOrigin = originOf(`${https ? "https" : "http"}://${req.get("host") ?? ""}`);
    const allowed = [siteOrigin, ownOrigin].filter((o): o is string => o !== null);
    const headers = { origin: req.get("origin"), secFetchSite: req.get("sec-fetch-site") };
    if (isForeignRequest(req.method, headers, allowed) && !isLinkSignedWrite(req.path)) {
      logger.info(
        {
          requestId,
          method: req.method,
          url: req.originalUrl,
          origin: req.get("origin"),
          secFetchSite: req.get("sec-fetch-site"),
        },
        "foreign origin refused",
      );
      return sendProblem(req, res, {
        status: 403,
        title: t("security.foreignOrigin.title"),
        text: t("security.foreignOrigin.text", { siteName }),
        siteName,
      });
    }

    const size = checkBody(req.method, {
      path: req.path,
      contentLength: req.get("content-length"),
      contentType: req.get("content-type"),
      transferEncoding: req.get("transfer-encoding"),
    });
    if (!size.ok) {
      // The unread body is not wanted: close the connection after answering.
      res.setHeader("Connection", "close");
      logger.info(
        {
          requestId,
          method: req.method,
          url: req.originalUrl,
          status: size.status,
          contentLength: req.get("content-length"),
        },
        "request body refused",
      );
      const key =
        size.status === 413
          ? "tooLarge"
          : size.status === 415
            ? size.reason === "multipart"
              ? "filesNotAccepted"
              : "unsupportedType"
            : "lengthRequired";
      return sendProblem(req, res, {
        status: size.status,
        title: t(`security.${key}.title`),
        text: t(`security.${key}.text`),
        siteName,
      });
    }
    next();
  };
}

/**
 * The last handler: an error that escaped everything else is logged with the
 * request id and answered with a short page naming that id. Client errors
 * Express raises itself (a malformed URL, for instance) keep their 4xx status.
 */
export function errorHandler({ siteName, logger }: { siteName: string; logger: Logger }): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) {
      logger.error(
        { err: error, requestId: requestIdOf(res), url: req.originalUrl },
        "error after the response started",
      );
      return next(error);
    }
    const requestId = requestIdOf(res);
    const declared = Number(
      (error as { status?: unknown; statusCode?: unknown })?.status ?? (error as { statusCode?: unknown })?.statusCode,
    );
    const status = Number.isInteger(declared) && declared >= 400 && declared < 500 ? declared : 500;
    if (status === 500)
      logger.error({ err: error, requestId, method: req.method, url: req.originalUrl }, "unexpected error");
    else
      logger.warn(
        { requestId, method: req.method, url: req.originalUrl, status, message: (error as Error)?.message },
        "request refused",
      );
    const copy =
      status === 500
        ? { title: t("common.errors.unexpectedTitle"), text: t("common.errors.unexpectedText") }
        : status === 413
          ? { title: t("security.tooLarge.title"), text: t("security.tooLarge.text") }
          : { title: t("security.badRequest.title"), text: t("security.badRequest.text") };
    sendProblem(req, res, { status, ...copy, siteName });
  };
}
