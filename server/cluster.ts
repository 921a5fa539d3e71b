// The cluster's primary process (ADR 040): forks WEB_CONCURRENCY
// workers that each run the whole app (server.ts) and share the port (each accepting
// its own connections: ADR 107), keeps the machine's rate-limit counters for them,
// restarts a worker that dies, and on SIGTERM lets every worker drain before it
// exits itself. It never loads the app: this file and the few it imports run as
// they are with Node's type stripping.
import cluster, { type Worker } from "node:cluster";
import fs from "node:fs";
import { AggregatorRegistry } from "prom-client";
import { answerWorker } from "../app/lib/primary-ipc.ts";
import { LIMIT_TOPIC, limitHandler } from "../app/limits/cluster-store.server.ts";
import { createMemoryStore, memoryStoreMetrics } from "../app/limits/memory-store.server.ts";
import { acceptInWorkers } from "./connections.ts";
import { createSocketFolder, peerDirectory, SOCKET_FOLDER_ENV } from "./page-sharing.ts";

export type ReadyMessage = { type: "bodima:ready"; react: string; port: number };
const isReady = (m: unknown): m is ReadyMessage => (m as ReadyMessage | null)?.type === "bodima:ready";

/** A worker that dies sooner than this after it started counts as crash-looping: its restart waits longer. */
const QUICK_DEATH_MS = 10_000;

export async function runPrimary(options: { workers: number; shutdownTimeoutMs: number }): Promise<void> {
  const limits = createMemoryStore();
  // /metrics in a worker asks here; prom-client collects every worker's registry and adds them up.
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  let quickDeaths = 0;
  const log = (line: string) => console.log(`[primary ${process.pid}] ${line}`);
  // Each worker accepts its own connections (ADR 107): set before the first fork.
  acceptInWorkers(cluster);
  // The IPC carries small JSON messages (limit questions, metrics, who listens): Node's default
  // serialisation. Structured clone ("advanced") grew the primary 145 -> 343 MB in two minutes of
  // 1,500 questions a second, where JSON stayed at 102 MB (ADR 123).
  // Workers run with V8's collector exposed, to give back the heap a crowd grew once quiet (ADR 140).
  const execArgv = process.execArgv.includes("--expose-gc") ? process.execArgv : [...process.execArgv, "--expose-gc"];
  cluster.setupPrimary({ serialization: "json", execArgv });
  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
  // The workers hand each other the pages they render over their own sockets in this folder
  // (ADR 061, 122); the primary only tells each worker which others listen.
  const socketFolder = createSocketFolder(log);
  process.on("exit", () => {
    if (socketFolder) fs.rmSync(socketFolder, { recursive: true, force: true });
  });
  const peers = peerDirectory();

  function fork(): { worker: Worker; ready: Promise<ReadyMessage> } {
    const worker = cluster.fork(socketFolder ? { [SOCKET_FOLDER_ENV]: socketFolder } : {});
    const startedAt = Date.now();
    answerWorker(worker, {
      [LIMIT_TOPIC]: limitHandler(limits),
      // The workers' sums, then the sizes of the rate-limit counters kept here.
      metrics: async () => `${await aggregator.clusterMetrics()}\n${memoryStoreMetrics(limits)}`,
    });
    peers.add(worker);
    const ready = new Promise<ReadyMessage>((resolve, reject) => {
      worker.on("message", (message) => {
        if (isReady(message)) resolve(message);
      });
      worker.once("exit", (code, signal) => reject(new Error(`worker exited (${signal ?? `code ${code}`})`)));
    });
    ready.catch(() => undefined);
    worker.once("exit", (code, signal) => {
      peers.remove(worker.id);
      if (stopping) return;
      const quick = Date.now() - startedAt < QUICK_DEATH_MS;
      quickDeaths = quick ? quickDeaths + 1 : 0;
      // 0.5 s, then doubling while it keeps dying at once, at most 30 s.
      const delay = Math.min(30_000, 500 * 2 ** Math.max(0, quickDeaths - 1));
      log(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another in ${delay} ms`);
      setTimeout(() => {
        if (!stopping) fork();
      }, delay);
    });
    return { worker, ready };
  }

  // The first worker starts alone: it migrates the database and adds demo data
  // once; the others find both done. If it cannot start (a configuration error,
  // already printed by the worker), neither can the rest: stop with its code.
  const first = fork();
  let ready: ReadyMessage;
  try {
    ready = await first.ready;
  } catch {
    stopping = true;
    process.exit(first.worker.process.exitCode ?? 1);
  }
  await Promise.allSettled(Array.from({ length: options.workers - 1 }, () => fork().ready));
  console.log(
    `Bodima is running at http://localhost:${ready.port} (NODE_ENV=${process.env.NODE_ENV}, React ${ready.react} build, ${options.workers} workers)`,
  );

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      const workers = live();
      const exited = workers.map((w) => new Promise((resolve) => w.once("exit", resolve)));
      // Each worker drains (server.ts): stops accepting, finishes requests, writes views, gives up leases.
      for (const worker of workers) worker.process.kill("SIGTERM");
      const deadline = setTimeout(() => {
        log("workers did not stop in time: killing them");
        for (const worker of workers) worker.process.kill("SIGKILL");
      }, options.shutdownTimeoutMs + 5_000);
      deadline.unref();
      Promise.all(exited).then(() => process.exit(0));
    });
  }
}
