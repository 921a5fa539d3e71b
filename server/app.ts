import { createRequestHandler } from "@react-router/express";
import express from "express";
import { RouterContextProvider } from "react-router";
import "react-router";
import { clientIpFrom } from "../app/limits/client-ip.server";
import { errorHandler, requestIdOf, securityMiddleware } from "../app/security/middleware.server";
import { getServices, requestContext } from "../app/services.server";

// Start-up (configuration, database, migrations, demo data) happens once, before
// the first request is accepted.
const services = await getServices();

export const app = express();
app.disable("x-powered-by");
if (services.env.TRUST_PROXY) app.set("trust proxy", true);

/** Headers, foreign-Origin refusal and body caps; server.ts applies the same ahead of its static files. */
export const security = securityMiddleware({
  siteUrl: services.env.siteUrl,
  siteName: services.env.SITE_NAME,
  development: services.env.NODE_ENV === "development",
  trustProxy: !!services.env.TRUST_PROXY,
  logger: services.logger,
});

/** The last handler, here and in server.ts: a short page with the request id, never a stack trace. */
export const handleErrors = errorHandler({ siteName: services.env.SITE_NAME, logger: services.logger });

app.use((req, res, next) => {
  const requestId = requestIdOf(res);
  const started = performance.now();
  res.on("finish", () => {
    services.logger.info(
      { requestId, method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(performance.now() - started) },
      "request",
    );
  });
  next();
});
app.use(security);

app.use(
  createRequestHandler({
    build: () => import("virtual:react-router/server-build"),
    getLoadContext(req, res) {
      const requestId = String(res.locals.requestId);
      const clientIp = clientIpFrom({ socketAddress: req.socket.remoteAddress, forwardedFor: req.headers["x-forwarded-for"], trustProxy: !!services.env.TRUST_PROXY });
      const context = new RouterContextProvider();
      const nonce = String(res.locals.cspNonce);
      context.set(requestContext, { ...services, requestId, clientIp, nonce, log: services.logger.child({ requestId }) });
      return context;
    },
  }),
);

app.use(handleErrors);
