import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { requestIdOf } from "./middleware.server";

/** How long each response waited in the render queue before Express saw it (server/pages.ts). */
const renderWaits = new WeakMap<object, number>();

/**
 * Notes how long a request waited for its turn to render (the render gate, ADR 093): the line's
 * `ms` starts only once Express sees it, so without this a crowd's wait would not be in the log.
 */
export function noteRenderWait(res: object, ms: number): void {
  renderWaits.set(res, ms);
}

/**
 * One log line per request, written when the response is finished, with the
 * request id its error page shows. Secrets in the URL's query are redacted by
 * the logger's `url` serializer (createLogger in app/services.server.ts).
 */
export function logRequests(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const requestId = requestIdOf(res);
    const started = performance.now();
    res.on("finish", () => {
      logger.info(
        {
          requestId,
          method: req.method,
          url: req.originalUrl,
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
          // Left out (undefined) when the request never waited in the render queue.
          queuedMs: renderWaits.get(res),
          cache: res.getHeader("X-Page-Cache"),
        },
        "request",
      );
    });
    next();
  };
}
