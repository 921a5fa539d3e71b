import os from "node:os";
import { describe, expect, it } from "vitest";
import { parseBenchArgs } from "./args.ts";

describe("parseBenchArgs", () => {
  it("has the full run's defaults", () => {
    expect(parseBenchArgs([])).toEqual({
      listings: 100_000,
      duration: 20,
      connections: 50,
      port: 3299,
      databaseUrl: undefined,
      json: undefined,
      short: false,
      keep: false,
      check: false,
      record: false,
      overload: false,
      coldCpu: false,
      hotUrls: 5_000,
      shapeRequests: 50,
      workers: os.availableParallelism(),
    });
  });

  it("--overload measures the crowd: 400 connections for 40 s unless told otherwise", () => {
    expect(parseBenchArgs(["--overload"])).toMatchObject({ overload: true, connections: 400, duration: 40 });
    expect(parseBenchArgs(["--overload", "--connections=200", "--duration", "10"])).toMatchObject({
      overload: true,
      connections: 200,
      duration: 10,
    });
    expect(parseBenchArgs(["--overload=yes"])).toEqual({ error: "--overload takes no value" });
  });

  it("--cold-cpu measures one worker at 4 connections unless told otherwise, and records nothing", () => {
    expect(parseBenchArgs(["--cold-cpu"])).toMatchObject({ coldCpu: true, workers: 1, connections: 4 });
    expect(parseBenchArgs(["--cold-cpu", "--workers", "2", "--connections=50"])).toMatchObject({
      coldCpu: true,
      workers: 2,
      connections: 50,
    });
    expect(parseBenchArgs(["--cold-cpu", "--record"])).toEqual({
      error: "--cold-cpu prints its figures only: it takes neither --record nor --overload",
    });
    expect(parseBenchArgs(["--cold-cpu=1"])).toEqual({ error: "--cold-cpu takes no value" });
  });

  it("reads every option in both forms; --short changes defaults, not explicit values", () => {
    expect(
      parseBenchArgs([
        "--short",
        "--listings=5000",
        "--database-url",
        "postgres://postgres@127.0.0.1/b",
        "--json",
        "out.json",
        "--keep",
        "--check",
        "--port=3510",
        "--connections",
        "10",
        "--workers=1",
      ]),
    ).toEqual({
      listings: 5_000,
      duration: 3,
      connections: 10,
      port: 3510,
      databaseUrl: "postgres://postgres@127.0.0.1/b",
      json: "out.json",
      short: true,
      keep: true,
      check: true,
      record: false,
      overload: false,
      coldCpu: false,
      hotUrls: 500,
      shapeRequests: 10,
      workers: 1,
    });
    expect(parseBenchArgs(["--listings", "1000000"])).toMatchObject({ listings: 1_000_000 });
    expect(parseBenchArgs(["--record"])).toMatchObject({ record: true, short: false });
  });

  it("explains what is wrong", () => {
    expect(parseBenchArgs(["--listings", "0"])).toEqual({
      error: "--listings must be a whole number from 1 to 1000000",
    });
    expect(parseBenchArgs(["--duration", "2.5"])).toEqual({
      error: "--duration must be a whole number from 1 to 3600",
    });
    expect(parseBenchArgs(["--workers", "0"])).toEqual({ error: "--workers must be a whole number from 1 to 64" });
    expect(parseBenchArgs(["--database-url", "mysql://x"])).toEqual({
      error: "--database-url must be a postgres:// URL",
    });
    expect(parseBenchArgs(["--json"])).toEqual({ error: "Missing value for --json" });
    expect(parseBenchArgs(["--short=yes"])).toEqual({ error: "--short takes no value" });
    expect(parseBenchArgs(["--short", "--record"])).toEqual({
      error: "--record keeps measured figures; a --short run measures nothing, so it cannot be recorded",
    });
    expect(parseBenchArgs(["--requests", "30"])).toEqual({ error: "Unknown argument: --requests" });
    expect(parseBenchArgs(["short"])).toEqual({ error: "Unknown argument: short" });
    expect(parseBenchArgs(["--help"])).toEqual({ help: true });
  });
});
