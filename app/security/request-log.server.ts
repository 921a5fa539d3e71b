import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { requestIdOf } from "./middleware.server";

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
          cache: res.getHeader("X-Page-Cache"),
        },
        "request",
      );
    });
    next();
  };
}
