import { randomUUID } from "node:crypto";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import { RouterContextProvider } from "react-router";
import "react-router";
import { getServices, requestContext } from "../app/services.server";

// Start-up (configuration, database, migrations, demo data) happens once, before
// the first request is accepted.
const services = await getServices();

export const app = express();
app.disable("x-powered-by");
if (services.env.TRUST_PROXY) app.set("trust proxy", true);

app.use((req, res, next) => {
  const requestId = randomUUID().slice(0, 8);
  res.locals.requestId = requestId;
  res.setHeader("X-Request-Id", requestId);
  const started = performance.now();
  res.on("finish", () => {
    services.logger.info(
      { requestId, method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(performance.now() - started) },
      "request",
    );
  });
  next();
});

app.use(
  createRequestHandler({
    build: () => import("virtual:react-router/server-build"),
    getLoadContext(req, res) {
      const requestId = String(res.locals.requestId);
      const clientIp = (services.env.TRUST_PROXY ? req.ip : req.socket.remoteAddress) ?? "unknown";
      const context = new RouterContextProvider();
      context.set(requestContext, { ...services, requestId, clientIp, log: services.logger.child({ requestId }) });
      return context;
    },
  }),
);
