import { describe, expect, it } from "vitest";
import { type CapacityStep, capacityOf } from "./capacity.ts";

const step = (connections: number, actionsPerSecond: number, p99Ms: number, errors = 0): CapacityStep => ({
  connections,
  actionsPerSecond,
  p99Ms,
  errors,
});

describe("soak capacity (ADR 103)", () => {
  it("is the best throughput answered within the budget, not the throughput past saturation", () => {
    const steps = [step(4, 60, 120), step(8, 110, 400), step(16, 140, 980), step(32, 155, 1_616)];
    expect(capacityOf(steps).actionsPerSecond).toBe(140);
    expect(capacityOf(steps).step.connections).toBe(16);
  });

  it("does not count a step where a request failed", () => {
    expect(capacityOf([step(4, 60, 120), step(8, 110, 400, 3)]).actionsPerSecond).toBe(60);
  });

  it("falls back to the first step when none was within the budget", () => {
    expect(capacityOf([step(4, 20, 2_500), step(8, 22, 4_000)]).actionsPerSecond).toBe(20);
    expect(() => capacityOf([])).toThrow();
  });
});
