import { afterEach, describe, expect, it } from "vitest";
import { currentTime, setClock } from "./clock";

describe("the clock", () => {
  afterEach(() => setClock(undefined));

  it("tells real time by default", () => {
    expect(Math.abs(currentTime().getTime() - Date.now())).toBeLessThan(50);
  });

  it("starts at NOW and runs on from there", async () => {
    setClock("2027-03-01T00:00:00Z");
    const first = currentTime().getTime();
    expect(Math.abs(first - Date.parse("2027-03-01T00:00:00Z"))).toBeLessThan(50);
    await new Promise((r) => setTimeout(r, 20));
    expect(currentTime().getTime()).toBeGreaterThan(first);
  });
});
