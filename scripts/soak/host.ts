import fs from "node:fs";
import { Worker } from "node:worker_threads";
import { pidsWhere, statFields } from "./sampler.ts";

/**
 * Where a minute's time went, to tell a server that drifts from a host that slows down
 * (docs/performance.md, the PostgreSQL soak whose server work doubled): the CPU the server's
 * processes and the database's spent, the share of the machine the hypervisor took (steal),
 * and the CPU a fixed piece of work took on this machine. On a steady host the probe's CPU is
 * flat; when it rises with the server's CPU a request, the host slowed, not the server.
 */

/** Clock ticks a second in /proc (USER_HZ): 100 on every Linux these machines run. */
const TICKS_PER_SECOND = 100;

/** CPU time (user and system) the processes have used since they started, in ms; one that has gone counts 0. */
export function processCpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]); // utime stime
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** A process and its children (PostgreSQL's postmaster and the backends it forks). */
export function processTree(root: number): number[] {
  return [root, ...pidsWhere(1, root)];
}

export type MachineTimes = { totalMs: number; stealMs: number };

/** The machine's CPU time since boot from /proc/stat's first line: all of it, and what the hypervisor stole. */
export function machineTimes(text = fs.readFileSync("/proc/stat", "utf8")): MachineTimes {
  const fields = text.slice(0, text.indexOf("\n")).trim().split(/\s+/).slice(1, 9).map(Number);
  // user nice system idle iowait irq softirq steal
  const ticks = fields.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  const steal = Number.isFinite(fields[7]) ? fields[7] : 0;
  return { totalMs: (ticks * 1000) / TICKS_PER_SECOND, stealMs: (steal * 1000) / TICKS_PER_SECOND };
}

/** The share of the machine's time the hypervisor stole between two readings (0 to 1). */
export function stealShare(before: MachineTimes, after: MachineTimes): number {
  const total = after.totalMs - before.totalMs;
  return total > 0 ? Math.max(0, after.stealMs - before.stealMs) / total : 0;
}

/**
 * The probe's fixed work: hashing (native code) and sorting (JavaScript), about 40 ms of CPU on a
 * fast machine. Runs in a worker thread, so the soak's schedule of requests does not wait for it,
 * and is timed in that thread's own CPU: what the cores' speed decides, not how busy they are.
 */
const PROBE_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const block = Buffer.alloc(1 << 20, 7);
parentPort.on("message", () => {
  const start = process.threadCpuUsage();
  let digest = "";
  for (let i = 0; i < 24; i++) digest = createHash("sha256").update(block).update(digest).digest("hex");
  let seed = 1;
  const numbers = Array.from({ length: 100000 }, () => (seed = (seed * 16807) % 2147483647));
  numbers.sort((a, b) => a - b);
  const used = process.threadCpuUsage(start);
  parentPort.postMessage({ cpuMs: (used.user + used.system) / 1000, check: digest.length + numbers[0] });
});
`;

/**
 * CPU used between one `take` and the next by a changing set of processes, counted per process:
 * one that starts in between counts from its start, one that exits stops counting.
 */
function cpuSince(pidsNow: () => readonly number[]) {
  let last = new Map<number, number>();
  const read = () => new Map(pidsNow().map((pid) => [pid, processCpuMs([pid])] as const));
  last = read();
  return () => {
    const now = read();
    let used = 0;
    for (const [pid, ms] of now) used += Math.max(0, ms - (last.get(pid) ?? 0));
    last = now;
    return used;
  };
}

export type MinuteCpu = {
  serverCpuMsPerRequest: number | null;
  databaseCpuMsPerRequest: number | null;
  steal: number;
};

/** Per-minute CPU of the server's processes and the database's (when the soak runs it), and the machine's steal. */
export function createCpuMeter(server: () => readonly number[], database?: () => readonly number[]) {
  const serverCpu = cpuSince(server);
  const databaseCpu = database ? cpuSince(database) : null;
  let machine = machineTimes();
  return {
    /** What was used since the last call, per request of the `requests` answered in between. */
    take(requests: number): MinuteCpu {
      const perRequest = (ms: number) => (requests > 0 ? ms / requests : null);
      const now = machineTimes();
      const steal = stealShare(machine, now);
      machine = now;
      return {
        serverCpuMsPerRequest: perRequest(serverCpu()),
        databaseCpuMsPerRequest: databaseCpu ? perRequest(databaseCpu()) : null,
        steal,
      };
    },
  };
}

export type HostProbe = { measure(): Promise<number | null>; close(): Promise<void> };

/** A probe thread, started once; `measure` answers null if the thread could not run it within 10 s. */
export function startHostProbe(): HostProbe {
  const worker = new Worker(PROBE_SOURCE, { eval: true });
  worker.unref();
  return {
    measure: () =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), 10_000);
        worker.once("message", (answer: { cpuMs: number }) => {
          clearTimeout(timer);
          resolve(answer.cpuMs);
        });
        worker.postMessage("run");
      }),
    close: async () => {
      await worker.terminate();
    },
  };
}
