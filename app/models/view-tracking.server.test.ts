import { describe, expect, it } from "vitest";
import { isCountableViewRequest, type ViewRequest } from "./view-tracking.server";

function request(userAgent: string | null, headers: Record<string, string> = {}): ViewRequest {
  const all: Record<string, string> = { ...headers, ...(userAgent ? { "user-agent": userAgent } : {}) };
  return { method: "GET", headers: { get: (name) => all[name] ?? null } };
}

const PHONE = "Mozilla/5.0 (Linux; Android 14; SM-A155F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0 Mobile";
const CRAWLER = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

describe("which requests count as someone looking at a listing", () => {
  it("gives the same answer for a User-Agent every time it is asked (the answers are remembered)", () => {
    for (let i = 0; i < 3; i++) {
      expect(isCountableViewRequest(request(PHONE))).toBe(true);
      expect(isCountableViewRequest(request(CRAWLER))).toBe(false);
    }
  });

  it("still answers correctly after many different User-Agents have been seen", () => {
    for (let i = 0; i < 1_200; i++) isCountableViewRequest(request(`${PHONE} build/${i}`));
    expect(isCountableViewRequest(request(CRAWLER))).toBe(false);
    expect(isCountableViewRequest(request(PHONE))).toBe(true);
  });

  it("does not count prefetches, previews, HEAD requests or requests without a User-Agent", () => {
    expect(isCountableViewRequest(request(PHONE, { "sec-purpose": "prefetch;prerender" }))).toBe(false);
    expect(isCountableViewRequest(request(PHONE, { purpose: "preview" }))).toBe(false);
    expect(isCountableViewRequest({ ...request(PHONE), method: "HEAD" })).toBe(false);
    expect(isCountableViewRequest(request(null))).toBe(false);
  });
});
