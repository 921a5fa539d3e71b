import { describe, expect, it } from "vitest";
import { isLoopbackRequest } from "./loopback.server";

// One test of "a program on this machine, through no proxy" for /metrics (a Node request's
// headers) and the dev outbox (a fetch Request's): every forwarding header counts.

const FORWARDED: Record<string, string>[] = [
  { "x-forwarded-for": "203.0.113.5" },
  { "x-real-ip": "203.0.113.5" },
  { forwarded: "for=203.0.113.5" },
  { "x-forwarded-host": "bodima.lk" },
  { "true-client-ip": "203.0.113.5" },
  { via: "1.1 nginx" },
];

describe("isLoopbackRequest", () => {
  it("is a loopback address with no forwarding header, in a Node request or a fetch Request", () => {
    for (const address of ["127.0.0.1", "127.0.0.53", "::1", "::ffff:127.0.0.1"]) {
      expect(isLoopbackRequest({}, address), address).toBe(true);
      expect(isLoopbackRequest(new Headers(), address), address).toBe(true);
    }
    for (const address of ["203.0.113.5", "10.0.0.1", "::ffff:10.0.0.1", "", null, undefined])
      expect(isLoopbackRequest({}, address), String(address)).toBe(false);
  });

  it("is never a request that any proxy header says was forwarded", () => {
    for (const headers of FORWARDED) {
      expect(isLoopbackRequest(headers, "127.0.0.1"), JSON.stringify(headers)).toBe(false);
      expect(isLoopbackRequest(new Headers(headers), "::1"), JSON.stringify(headers)).toBe(false);
    }
  });
});
