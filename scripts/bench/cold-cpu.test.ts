import { describe, expect, it } from "vitest";
import { byKind, formatColdCpu, kindOf } from "./cold-cpu.ts";

describe("the --cold-cpu run", () => {
  it("sorts the cold mix's URLs into the kinds a page costs differently by", () => {
    expect(kindOf("/listing/single-room-near-moratuwa-uni-123")).toBe("listing page");
    expect(kindOf("/browse?university=University%20of%20Colombo&within=2")).toBe("browse page");
    expect(kindOf("/university/kdu?page=19")).toBe("university, city or search page");
    expect(kindOf("/city/matara")).toBe("university, city or search page");
    expect(kindOf("/search/Kandy")).toBe("university, city or search page");
    expect(kindOf("/api/listings?limit=50&page=3")).toBe("JSON list");
    expect(kindOf("/api/listings")).toBe("JSON list");
    expect(kindOf("/api/listings/123")).toBe("JSON ad");
    expect(kindOf("/about")).toBe("other");
    expect([...byKind(["/browse", "/listing/a-1", "/browse?page=2"])]).toEqual([
      ["browse page", ["/browse", "/browse?page=2"]],
      ["listing page", ["/listing/a-1"]],
    ]);
  });

  it("prints each kind's median and spread, and the mix's mean weighted by share", () => {
    const text = formatColdCpu(
      [
        { kind: "listing page", share: 0.75, perRound: [8, 6, 7], notOk: 0 },
        { kind: "browse page", share: 0.25, perRound: [12, 15, 11], notOk: 2 },
      ],
      "test",
    );
    expect(text).toContain("listing page                      75.0%     7.00 ms   6.00–8.00 ms");
    expect(text).toContain("browse page                       25.0%    12.00 ms   11.00–15.00 ms  (2 answers not 200)");
    // 0.75 × 7 + 0.25 × 12
    expect(text).toContain("The cold mix, weighted by share: 8.25 ms a page");
  });
});
