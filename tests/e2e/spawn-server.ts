import { spawn } from "node:child_process";

/**
 * server.ts as `npm start` runs it, without NODE_ENV (unless `env` sets one: NOW needs "test"), on a
 * data folder of its own; resolves with its start line.
 */
export function startServer(
  dataDir: string,
  seedDemo: "auto" | "never",
  options: { port: number; env?: NodeJS.ProcessEnv; output?: string[] },
) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(options.port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SEED_DEMO: seedDemo,
    LOG_LEVEL: "warn",
    ...options.env,
  };
  if (!options.env?.NODE_ENV) delete env.NODE_ENV;
  if (!options.env?.DATABASE_URL) delete env.DATABASE_URL;
  if (!options.env?.SMTP_URL) delete env.SMTP_URL;
  if (!options.env?.SMS_URL) delete env.SMS_URL;
  const server = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", "server.ts"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => server.on("exit", resolve));
  const started = new Promise<string>((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      options.output?.push(chunk.toString());
      const line = out.split("\n").find((l) => l.includes("Bodima is running"));
      if (line) resolve(line);
    });
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${out}`)));
    setTimeout(() => reject(new Error(`no start line: ${out}`)), 90_000);
  });
  /**
   * SIGTERM to its process group, as a supervisor would; safe to call again or after it exited.
   * A server still up 15 s later is killed, so a failed test never leaves it holding its port.
   */
  const stop = (): Promise<number | null> => {
    if (server.exitCode === null && server.signalCode === null) {
      signal(server.pid, "SIGTERM");
      const kill = setTimeout(() => signal(server.pid, "SIGKILL"), 15_000);
      void exited.then(() => clearTimeout(kill));
    }
    return exited;
  };
  return { server, started, exited, stop };
}

/** Signals a process group that may be gone already. */
function signal(pid: number | undefined, name: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, name);
  } catch {
    // Already gone: nothing to stop.
  }
}
