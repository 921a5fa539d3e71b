import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  appendRecord,
  BENCHMARKS_FILE,
  currentCommit,
  describeMachine,
  formatRecord,
  type RunContext,
} from "./record.ts";
import { type BenchResults, checkBudgets, type PhaseResult } from "./results.ts";

function phase(requestsPerSecond: number, extra: Partial<PhaseResult> = {}): PhaseResult {
  const requests = requestsPerSecond * 20;
  return {
    connections: 50,
    seconds: 20,
    requests,
    requestsPerSecond,
    p50: 5,
    p99: 20,
    statusCodes: { 200: requests },
    errors: 0,
    ...extra,
  };
}

const sample: BenchResults = {
  listings: 100_000,
  database: "SQLite",
  short: false,
  workers: 2,
  stylesheet: { path: "/assets/app-x.css", encoding: "br", bytes: 6_600 },
  phases: {
    bare: phase(16_213),
    static: phase(18_646),
    warmUp: phase(300, { urls: 5_000, requests: 5_000 }),
    hot: phase(9_670, { urls: 5_000, p99: 17.5 }),
    cold: phase(126, { p50: 310, p99: 659 }),
  },
  shapes: [
    { name: "newest first", path: "/browse", requests: 50, p50: 24, p95: 31.25, statusCodes: { 200: 50 } },
    { name: "deepest page", path: "/browse?page=1000", requests: 50, p50: 26.1, p95: 59, statusCodes: { 200: 50 } },
  ],
};

const context: RunContext = {
  date: new Date("2026-11-28T13:05:42Z"),
  commit: { hash: "f02fdd4", dirty: false },
  machine: { cores: 2, cpuModel: "AMD EPYC 7B13" },
  args: ["--listings", "100000", "--record"],
};

describe("formatRecord", () => {
  it("writes a dated section with the machine, the bare figure, the commit, the budgets and the shapes", () => {
    expect(formatRecord(sample, checkBudgets(sample), context)).toBe(
      [
        "### 2026-11-28 13:05 UTC: SQLite, 100,000 listings, 2 workers",
        "",
        "- Command: `npm run bench -- --listings 100000 --record`",
        "- Commit: `f02fdd4`",
        "- Machine: 2 cores, AMD EPYC 7B13; bare `node:http` 16,213 req/s (compare ratios, not req/s, between machines)",
        "",
        "| Phase | req/s | p50 ms | p99 ms | Share |",
        "| --- | --- | --- | --- | --- |",
        "| (a) bare `node:http` | 16,213 | 5.0 | 20.0 | – |",
        "| (b) static | 18,646 | 5.0 | 20.0 | 115.0% of (a) |",
        "| (c) hot mix | 9,670 | 5.0 | 17.5 | 51.9% of (b) |",
        "| (d) cold mix | 126 | 310.0 | 659.0 | 0.7% of (b) |",
        "",
        "| Budget | Measured | Result |",
        "| --- | --- | --- |",
        "| (b) static ≥ 40% of (a) bare | 115.0% | met |",
        "| (c) hot ≥ 50.0% of (b) static | 51.9% | met |",
        "| (c) hot p99 ≤ 50 ms | 17.5 ms | met |",
        "| (c) hot errors = 0 | 0 | met |",
        "| (c) hot non-2xx = 0 | 0 | met |",
        "| (d) cold ≥ 10.0% of (b) static | 0.7% | **not met** |",
        "| (d) cold p99 ≤ 250 ms | 659 ms | **not met** |",
        "",
        "Search shapes, one connection, 50 requests each: 1 of 2 within 50 ms p95.",
        "",
        "| Shape | p50 ms | p95 ms |",
        "| --- | --- | --- |",
        "| newest first | 24.0 | 31.3 |",
        "| deepest page | 26.1 | **59.0** |",
        "",
      ].join("\n"),
    );
  });

  it("says when the work tree differed from the commit, or when there is no clone", () => {
    const dirty = formatRecord(sample, [], { ...context, commit: { hash: "abc1234", dirty: true } });
    expect(dirty).toContain("- Commit: `abc1234` with uncommitted changes");
    expect(formatRecord(sample, [], { ...context, commit: null })).toContain("- Commit: unknown (not a git clone)");
  });

  it("names one worker in the singular", () => {
    expect(formatRecord({ ...sample, workers: 1 }, [], context)).toMatch(/^### .*, 1 worker\n/);
  });
});

describe("appendRecord", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  function tempFile(content?: string): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-record-"));
    dirs.push(dir);
    const file = path.join(dir, "benchmarks.md");
    if (content !== undefined) fs.writeFileSync(file, content);
    return file;
  }

  it("appends newest last with one blank line between sections, whatever the file ended with", () => {
    for (const ending of ["", "\n", "\n\n"]) {
      const file = tempFile(`# Benchmark runs\n\nOld run.${ending}`);
      appendRecord(file, "## New run\n");
      expect(fs.readFileSync(file, "utf8")).toBe("# Benchmark runs\n\nOld run.\n\n## New run\n");
    }
  });

  it("creates the file when it is missing", () => {
    const file = tempFile();
    appendRecord(file, "## First run\n");
    expect(fs.readFileSync(file, "utf8")).toBe("## First run\n");
  });
});

describe("the run's context", () => {
  it("records into the repository's docs/benchmarks.md, which ends with the recorded runs", () => {
    expect(path.relative(process.cwd(), BENCHMARKS_FILE)).toBe(path.join("docs", "benchmarks.md"));
    expect(fs.readFileSync(BENCHMARKS_FILE, "utf8")).toMatch(/\n## Recorded runs\n/);
  });

  it("reads the machine from os.cpus()", () => {
    const machine = describeMachine();
    expect(machine.cores).toBe(os.cpus().length);
    expect(machine.cpuModel.length).toBeGreaterThan(0);
  });

  it("reads the commit from git, and null outside a clone", () => {
    expect(currentCommit()?.hash).toMatch(/^[0-9a-f]{7,}$/);
    expect(currentCommit(os.tmpdir())).toBeNull();
  });

  it("marks the commit changed when tracked code differs, but not for the records themselves", () => {
    const clone = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-record-"));
    try {
      const git = (...args: string[]) => execFileSync("git", args, { cwd: clone, stdio: "ignore" });
      git("init", "-q");
      fs.mkdirSync(path.join(clone, "docs"));
      fs.writeFileSync(path.join(clone, "docs", "benchmarks.md"), "# Benchmarks\n");
      fs.writeFileSync(path.join(clone, "server.ts"), "// code\n");
      git("add", ".");
      git("-c", "user.name=t", "-c", "user.email=t@example.lk", "commit", "-qm", "first");
      expect(currentCommit(clone)?.dirty).toBe(false);
      fs.appendFileSync(path.join(clone, "docs", "benchmarks.md"), "### a run\n");
      expect(currentCommit(clone)?.dirty).toBe(false);
      // Asked from a folder inside the clone, as from its top.
      expect(currentCommit(path.join(clone, "docs"))?.dirty).toBe(false);
      fs.appendFileSync(path.join(clone, "server.ts"), "// changed\n");
      expect(currentCommit(clone)?.dirty).toBe(true);
      expect(currentCommit(path.join(clone, "docs"))?.dirty).toBe(true);
    } finally {
      fs.rmSync(clone, { recursive: true, force: true });
    }
  });
});
