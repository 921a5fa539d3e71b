import { describe, expect, it } from "vitest";
import { randomChunk } from "./random.server";

describe("randomChunk", () => {
  it("never hands out the same bytes twice, across refills of the pool", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i += 1) seen.add(randomChunk(16).toString("hex"));
    expect(seen.size).toBe(2000);
  });

  it("gives the size asked for, also above the pool's size", () => {
    expect(randomChunk(7)).toHaveLength(7);
    expect(randomChunk(10_000)).toHaveLength(10_000);
  });
});
