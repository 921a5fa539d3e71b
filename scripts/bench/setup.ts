// What every benchmark run starts with (scripts/bench.ts, the --overload run): a data folder,
// the production server's environment, and clean-up when it ends or is interrupted.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BenchOptions } from "./args.ts";
import { type Service, serverEnv } from "./processes.ts";

export type BenchRun = {
  dataDir: string;
  base: string;
  env: NodeJS.ProcessEnv;
  serverLog: string;
  services: Service[];
  cleanUp: () => void;
};

/** A fresh data folder and the production server's environment for `args`; services pushed are stopped at clean-up. */
export function prepareRun(args: BenchOptions, sessionSecret: string): BenchRun {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-bench-"));
  const base = `http://127.0.0.1:${args.port}`;
  const env = serverEnv({ dataDir, port: args.port, workers: args.workers, sessionSecret });
  if (args.databaseUrl) env.DATABASE_URL = args.databaseUrl;

  const services: Service[] = [];
  const cleanUp = () => {
    for (const service of services) service.stop();
    if (args.keep) console.log(`Data folder kept: ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      cleanUp();
      process.exit(130);
    });
  }
  return { dataDir, base, env, serverLog: path.join(dataDir, "server.log"), services, cleanUp };
}
