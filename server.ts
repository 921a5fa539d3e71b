// The production (and development) server. Runs on Node 24 with type stripping.
//
// NODE_ENV comes first: React, React Router and Express choose their build when
// first imported, and `npm start` must never run React's development build
// (about half the speed). Everything else is imported after this line.
process.env.NODE_ENV ??= "production";

const fs = await import("node:fs");
const http = await import("node:http");
const os = await import("node:os");
const path = await import("node:path");
const { default: cluster } = await import("node:cluster");
const { spawnSync } = await import("node:child_process");
const { createRequire } = await import("node:module");

const DEVELOPMENT = process.env.NODE_ENV === "development";
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");
const PORT = Number.parseInt(process.env.PORT ?? "3000", 10);
const HOST = process.env.HOST ?? "0.0.0.0";

/** A whole number from the environment, or the default; anything else stops the server with the variable's name. */
function wholeNumber(name: string, fallback: number, min: number, max: number): number {
  const text = process.env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`${name} must be a whole number from ${min} to ${max}; it is "${text}".`);
    process.exit(1);
  }
  return value;
}
/** Worker processes (ADR 040): one per core by default; development always runs one (Vite). */
const WORKERS = DEVELOPMENT ? 1 : wholeNumber("WEB_CONCURRENCY", os.availableParallelism(), 1, 64);
/** How long a stopping server lets requests under way finish (SIGTERM). */
const SHUTDOWN_TIMEOUT_MS = wholeNumber("SHUTDOWN_TIMEOUT_S", 10, 0, 3600) * 1000;

function buildIfMissing(): string {
  const serverEntry = path.join(BUILD_DIR, "server", "index.js");
  if (!fs.existsSync(serverEntry)) {
    console.log("No production build found: building first (npm run build)...");
    const result = spawnSync("npm", ["run", "build"], { stdio: "inherit", env: process.env });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  return serverEntry;
}

if (WORKERS > 1 && cluster.isPrimary) {
  // The primary builds if needed (once), then only supervises: server/cluster.ts.
  buildIfMissing();
  const { runPrimary } = await import("./server/cluster.ts");
  await runPrimary({ workers: WORKERS, shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS });
} else {
  await serve();
}

async function serve(): Promise<void> {
  let handler: (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void;
  let shutdown = async () => {};

  if (DEVELOPMENT) {
    const express = (await import("express")).default;
    const vite = await import("vite");
    const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
    const dev = express();
    dev.use(viteDevServer.middlewares);
    dev.use(async (req, res, next) => {
      try {
        const source = await viteDevServer.ssrLoadModule("./server/app.ts");
        return await source.app(req, res, next);
      } catch (error) {
        if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
        next(error);
      }
    });
    handler = dev;
  } else {
    const serverEntry = buildIfMissing();
    let build: { createHandler: (clientDir: string) => typeof handler; shutdown: typeof shutdown };
    try {
      build = await import(serverEntry);
    } catch (error) {
      // Configuration errors name the variable; print them plainly.
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    }
    handler = build.createHandler(path.join(BUILD_DIR, "client"));
    shutdown = build.shutdown;
  }

  /** Which build of React renders pages: the production test (tests/e2e/production-mode.spec.ts) reads it from the first log line. */
  function reactBuild(): string {
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    return loaded.some((file) => /react-dom-server\.node\.development\.js$/.test(file)) ? "development" : "production";
  }

  // Each connection is closed after a hundred requests, so that workers accepting for themselves stay even (ADR 107).
  const { closeConnectionsAfter } = await import("./server/connections.ts");
  const server = http.createServer(closeConnectionsAfter(handler));
  server.listen(PORT, HOST, () => {
    if (cluster.isWorker) {
      // The primary says it once all workers listen.
      process.send?.({ type: "bodima:ready", react: reactBuild(), port: PORT });
      return;
    }
    // In development Vite loads React on the first request, so there is nothing to report yet.
    const react = DEVELOPMENT ? "" : `, React ${reactBuild()} build`;
    console.log(`Bodima is running at http://localhost:${PORT} (NODE_ENV=${process.env.NODE_ENV}${react})`);
  });

  // A clean stop: stop accepting, finish the requests under way (SHUTDOWN_TIMEOUT_S),
  // then write the views counted so far, let jobs finish and give up their leases.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    Promise.race([closed, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS).unref())])
      .then(() => shutdown())
      .catch((error: unknown) => console.error("shutdown:", error))
      .finally(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // A worker whose primary is gone (killed) stops too, cleanly, rather than serve on unsupervised.
  if (cluster.isWorker) process.on("disconnect", stop);
}
