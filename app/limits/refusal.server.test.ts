import { describe, expect, it } from "vitest";
import { longestRefusal, refusalHeaders, refusalOf } from "./refusal.server";

describe("refusals", () => {
  it("says 'too many' (429) only for a real refusal; a limit that could not be checked is 'unavailable' (503)", () => {
    expect(refusalOf({}, "report.errors.tooMany")).toEqual({ message: "report.errors.tooMany", status: 429 });
    expect(refusalOf({ unavailable: true }, "report.errors.tooMany")).toEqual({
      message: "common.unavailable",
      status: 503,
    });
  });

  it("answers with the limit that lasts longest, or null when every limit allows", async () => {
    const allow = Promise.resolve({ ok: true as const, remaining: 3 });
    const short = Promise.resolve({ ok: false as const, retryAfterSeconds: 30 });
    const long = Promise.resolve({ ok: false as const, retryAfterSeconds: 600 });
    expect(await longestRefusal([allow, allow])).toBeNull();
    expect(await longestRefusal([short, allow])).toEqual({ ok: false, retryAfterSeconds: 30 });
    expect(await longestRefusal([short, long, allow])).toEqual({ ok: false, retryAfterSeconds: 600 });
  });

  it("passes an action's Retry-After and Cache-Control on to the page, over the loader's", () => {
    const headers = refusalHeaders({
      actionHeaders: new Headers({ "Retry-After": "42", "Cache-Control": "no-store", "X-Other": "no" }),
      loaderHeaders: new Headers({ "Cache-Control": "max-age=60", Vary: "Cookie" }),
    });
    expect(Object.fromEntries(headers)).toEqual({ "retry-after": "42", "cache-control": "no-store", vary: "Cookie" });
    const plain = refusalHeaders({ actionHeaders: new Headers(), loaderHeaders: new Headers({ Vary: "Cookie" }) });
    expect(Object.fromEntries(plain)).toEqual({ vary: "Cookie" });
  });
});
