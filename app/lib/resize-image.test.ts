import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitInside, MAX_COMPRESSED_BYTES, nextResizeStep, RESIZE_STEPS } from "./resize-image";

describe("fitInside", () => {
  it("fits a landscape or portrait photo inside the bound, keeping the aspect ratio", () => {
    expect(fitInside(4000, 3000, 1200)).toEqual({ width: 1200, height: 900 });
    expect(fitInside(3000, 4000, 1200)).toEqual({ width: 900, height: 1200 });
    expect(fitInside(4000, 3000, 800)).toEqual({ width: 800, height: 600 });
    expect(fitInside(1200, 1200, 1200)).toEqual({ width: 1200, height: 1200 });
  });

  it("never enlarges a small photo", () => {
    expect(fitInside(640, 480, 1200)).toEqual({ width: 640, height: 480 });
  });

  it("keeps a very thin image at least one pixel high", () => {
    expect(fitInside(4000, 1, 800)).toEqual({ width: 800, height: 1 });
  });

  it("always stays within the bound and never grows (any size)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.constantFrom(1200, 800),
        (w, h, bound) => {
          const out = fitInside(w, h, bound);
          expect(Math.max(out.width, out.height)).toBeLessThanOrEqual(Math.max(bound, 1));
          expect(out.width).toBeLessThanOrEqual(w);
          expect(out.height).toBeLessThanOrEqual(h);
        },
      ),
    );
  });
});

describe("the resize plan", () => {
  it("is 1200 px at quality 0.8, then 800 px at quality 0.6", () => {
    expect(RESIZE_STEPS).toEqual([
      { maxSide: 1200, quality: 0.8 },
      { maxSide: 800, quality: 0.6 },
    ]);
    expect(MAX_COMPRESSED_BYTES).toBe(2 * 1024 * 1024);
  });

  it("keeps a first result of 2MB or less", () => {
    expect(nextResizeStep(0, 350_000)).toBeNull();
    expect(nextResizeStep(0, MAX_COMPRESSED_BYTES)).toBeNull();
  });

  it("redoes a result over 2MB at the fallback, once", () => {
    expect(nextResizeStep(0, MAX_COMPRESSED_BYTES + 1)).toBe(1);
    expect(RESIZE_STEPS[1]).toEqual({ maxSide: 800, quality: 0.6 });
    expect(nextResizeStep(1, MAX_COMPRESSED_BYTES + 1)).toBeNull();
  });
});
