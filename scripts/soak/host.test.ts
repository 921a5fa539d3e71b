import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { createCpuMeter, machineTimes, processCpuMs, processTree, startHostProbe, stealShare } from "./host.ts";

const burn = (ms: number) => {
  const until = performance.now() + ms;
  let x = 0;
  while (performance.now() < until) x += Math.sqrt(x + 1);
  return x;
};

describe("where a soak minute's time went", () => {
  it("reads the machine's time and the hypervisor's steal from /proc/stat", () => {
    const before = machineTimes("cpu  100 0 50 800 10 0 5 35 0 0\ncpu0 1 2 3\n");
    expect(before).toEqual({ totalMs: 10_000, stealMs: 350 });
    const after = machineTimes("cpu  200 0 100 1600 20 0 10 70 0 0\n");
    expect(stealShare(before, after)).toBeCloseTo(0.035);
    expect(stealShare(after, after)).toBe(0);
    // The real file parses too.
    expect(machineTimes().totalMs).toBeGreaterThan(0);
  });

  it("counts the CPU a set of processes used, and a process's children with it", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 5000)"]);
    try {
      await new Promise((resolve) => child.once("spawn", resolve));
      expect(processTree(process.pid)).toEqual(expect.arrayContaining([process.pid, child.pid]));
      const meter = createCpuMeter(() => [process.pid]);
      burn(120);
      const used = meter.take(10);
      // About 12 ms a request of CPU (120 ms over 10 requests), in /proc's 10 ms ticks.
      expect(used.serverCpuMsPerRequest).toBeGreaterThanOrEqual(8);
      expect(used.databaseCpuMsPerRequest).toBeNull();
      expect(meter.take(0).serverCpuMsPerRequest).toBeNull();
      // A process that has gone counts nothing rather than failing.
      expect(processCpuMs([2 ** 22 + 7])).toBe(0);
    } finally {
      child.kill();
    }
  });

  const probe = startHostProbe();
  afterAll(() => probe.close());

  it("times the probe's fixed work in the CPU of its own thread", async () => {
    const first = await probe.measure();
    const second = await probe.measure();
    expect(first).toBeGreaterThan(1);
    expect(second).toBeGreaterThan(1);
    // The same work: within a factor of three on any one machine, however busy the other core is.
    expect(Math.max(first!, second!) / Math.min(first!, second!)).toBeLessThan(3);
  });
});
