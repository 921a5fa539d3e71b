// The production (and development) server. Runs on Node 24 with type stripping.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import compression from "compression";
import express from "express";

const DEVELOPMENT = process.env.NODE_ENV === "development";
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");
const PORT = Number.parseInt(process.env.PORT ?? "3000", 10);
const HOST = process.env.HOST ?? "0.0.0.0";

const server = express();
server.disable("x-powered-by");
server.use(compression());

if (DEVELOPMENT) {
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  server.use(viteDevServer.middlewares);
  server.use(async (req, res, next) => {
    try {
      const source = await viteDevServer.ssrLoadModule("./server/app.ts");
      return await source.app(req, res, next);
    } catch (error) {
      if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
      next(error);
    }
  });
} else {
  const serverEntry = path.join(BUILD_DIR, "server", "index.js");
  if (!fs.existsSync(serverEntry)) {
    console.log("No production build found: building first (npm run build)...");
    const result = spawnSync("npm", ["run", "build"], { stdio: "inherit", env: process.env });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  let build;
  try {
    build = await import(serverEntry);
  } catch (error) {
    // Configuration errors name the variable; print them plainly.
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  // Security headers, the foreign-Origin refusal and body caps (server/app.ts)
  // cover static files too, so they come first; the last handler answers any
  // error with a short page, never a stack trace.
  server.use(build.security);
  server.use(
    "/assets",
    express.static(path.join(BUILD_DIR, "client", "assets"), { immutable: true, maxAge: "1y", index: false }),
  );
  server.use(express.static(path.join(BUILD_DIR, "client"), { maxAge: "1h", index: false }));
  server.use(build.app);
  server.use(build.handleErrors);
}

server.listen(PORT, HOST, () => {
  console.log(`Bodima is running at http://localhost:${PORT}`);
});
