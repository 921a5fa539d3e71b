import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIsCurrent } from "../build-stamp.ts";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const NODE_FLAGS = ["--disable-warning=ExperimentalWarning"];

/** Runs a step to completion in the foreground (its output is the user's progress report). */
export function runStep(label: string, command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { cwd: ROOT, env, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${label} failed (exit code ${result.status ?? result.signal})`);
}

/** Builds the app unless its build finished after the last change to what it is made from (scripts/build-stamp.ts). */
export function buildApp(env: NodeJS.ProcessEnv): void {
  const buildDir = path.resolve(ROOT, env.BUILD_DIR ?? "build");
  if (buildIsCurrent(ROOT, buildDir)) {
    console.log(`${path.relative(ROOT, buildDir)}/ is newer than every file it is made from: using it as it is.`);
    return;
  }
  runStep("npm run build", "npm", ["run", "build"], env);
}

export function seed(env: NodeJS.ProcessEnv, listings: number): void {
  runStep("the seed", process.execPath, [...NODE_FLAGS, "scripts/seed.ts", "--listings", String(listings)], env);
}

/**
 * The environment of a production server on this machine for a benchmark or a soak:
 * its own data folder and port, no demo data, the log level of production.
 */
export function serverEnv(options: { dataDir: string; port: number; workers: number; sessionSecret: string }) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // React and React Router pick their production builds from this when first imported.
    NODE_ENV: "production",
    DATA_DIR: options.dataDir,
    PORT: String(options.port),
    HOST: "127.0.0.1",
    SITE_URL: `http://127.0.0.1:${options.port}`,
    SEED_DEMO: "never",
    // Production's level: one log line per request is part of the cost of a request.
    LOG_LEVEL: "info",
    WEB_CONCURRENCY: String(options.workers),
    SESSION_SECRET: options.sessionSecret,
  };
  delete env.DATABASE_URL;
  return env;
}

export type Service = { child: ChildProcess; stop: () => void };

/**
 * Starts a Node script in its own process group (what `npm start` runs, for
 * the app), its output into `logFile`. stop() ends the whole group: killing
 * one pid can leave children behind.
 */
export function startService(script: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Service {
  const log = fs.openSync(logFile, "a");
  const child = spawn(process.execPath, [...NODE_FLAGS, script, ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", log, log],
    detached: true,
  });
  fs.closeSync(log);
  let stopped = false;
  return {
    child,
    stop() {
      if (stopped || child.pid === undefined) return;
      stopped = true;
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // The group has already exited.
      }
    },
  };
}

/** Resolves once `url` answers 2xx; fails when the service exits first or after `seconds`. */
export async function waitUntilUp(url: string, service: Service, seconds = 120): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) {
      throw new Error(
        `the process for ${url} exited (${service.child.exitCode ?? service.child.signalCode}) before answering`,
      );
    }
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
}

/** The last lines of a log, to show why a run failed. */
export function tail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}
