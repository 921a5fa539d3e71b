import { afterEach, describe, expect, it, vi } from "vitest";
import { createRenderFlights } from "./render-flights";

describe("one render per page at a time (ADR 108)", () => {
  afterEach(() => vi.useRealTimers());

  it("tells each follower once when the leader is done, and forgets the flight", () => {
    const flights = createRenderFlights({ followMs: 1_000, maxFollowers: 10 });
    expect(flights.follow("/browse", () => undefined)).toBe(false);
    const done = flights.lead("/browse");
    const told: string[] = [];
    expect(flights.follow("/browse", () => told.push("a"))).toBe(true);
    expect(flights.follow("/browse", () => told.push("b"))).toBe(true);
    expect(flights.flying("/about")).toBe(false);
    done();
    done();
    expect(told).toEqual(["a", "b"]);
    expect(flights.flying("/browse")).toBe(false);
    expect(flights.size).toBe(0);
  });

  it("lets a follower go on its own after followMs, and a crowd past maxFollowers never waits", () => {
    vi.useFakeTimers();
    const flights = createRenderFlights({ followMs: 2_000, maxFollowers: 2 });
    const done = flights.lead("/browse");
    const told: string[] = [];
    flights.follow("/browse", () => told.push("a"));
    flights.follow("/browse", () => told.push("b"));
    expect(flights.follow("/browse", () => told.push("c"))).toBe(false);
    vi.advanceTimersByTime(1_999);
    expect(told).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(told).toEqual(["a", "b"]);
    // Gone from the flight: the leader's end does not call them twice, and new ones may follow.
    done();
    expect(told).toEqual(["a", "b"]);
  });

  it("keeps a newer flight of the same page when an older leader ends late", () => {
    const flights = createRenderFlights({ followMs: 1_000, maxFollowers: 10 });
    const older = flights.lead("/browse");
    const newer = flights.lead("/browse");
    older();
    expect(flights.flying("/browse")).toBe(true);
    newer();
    expect(flights.flying("/browse")).toBe(false);
  });
});
