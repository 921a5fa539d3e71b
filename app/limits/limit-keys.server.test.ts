import { describe, expect, it } from "vitest";
import { createMemoryStore, createRateLimiter, DEFAULT_LIMITS, LIMIT_NAMES, type LimitName } from "./rate-limit.server";

// ADR 025: every limit declares what it counts per, and the
// limiter builds the key from what the caller passes, so the IPv6 grouping
// cannot be forgotten by a caller.

const byIp = LIMIT_NAMES.filter((name) =>
  DEFAULT_LIMITS[name].per.some((parts) => parts.some((p) => p === "ip" || p === "network" || p === "visitor")),
);

/** Everything any limit may read; each takes what its parts need. */
const subject = (ip: string) => ({ ip, account: "Kamala@Example.lk", user: "u-1", visitor: null, listing: 7 }) as never;

/** One attempt allowed per limit, so a second from the same key is refused. */
function oneEach() {
  const rules = Object.fromEntries(LIMIT_NAMES.map((name) => [name, { max: 1, windowSeconds: 60 }]));
  return createRateLimiter(createMemoryStore(), rules, () => 1_000_000);
}

describe("limit keys", () => {
  it("every limit keyed by address: two IPv6 addresses of one /64 share it, another /64 does not", async () => {
    expect(byIp).toEqual(
      expect.arrayContaining(["loginIp", "loginAccount", "signupIp", "reportIp", "contactIp", "viewVisitor"]),
    );
    for (const name of byIp) {
      const limiter = oneEach();
      expect((await limiter.consume(name as LimitName, subject("2001:db8:5:6::1"))).ok, name).toBe(true);
      expect((await limiter.consume(name as LimitName, subject("2001:DB8:5:6:ffff::2"))).ok, name).toBe(false);
      expect((await limiter.consume(name as LimitName, subject("2001:db8:5:7::1"))).ok, name).toBe(true);
    }
  });

  it("per address counts each IPv4 address, per network its /24", async () => {
    const limiter = oneEach();
    for (const name of ["signupIp", "contactIp", "loginIp"] as const) {
      expect((await limiter.consume(name, { ip: "203.0.113.7" })).ok).toBe(true);
      expect((await limiter.consume(name, { ip: "::ffff:203.0.113.8" })).ok).toBe(true);
      expect((await limiter.consume(name, { ip: "203.0.113.7" })).ok).toBe(false);
    }
    expect((await limiter.consume("reportIp", { ip: "203.0.113.7" })).ok).toBe(true);
    expect((await limiter.consume("reportIp", { ip: "203.0.113.250" })).ok).toBe(false);
    expect((await limiter.consume("reportIp", { ip: "203.0.114.7" })).ok).toBe(true);
  });

  it("an account is its address, whatever the case and spaces; login pairs it with the network", async () => {
    const limiter = oneEach();
    expect((await limiter.consume("resetEmail", { account: "Kamala@Example.lk" })).ok).toBe(true);
    expect((await limiter.consume("resetEmail", { account: " kamala@example.lk " })).ok).toBe(false);
    expect((await limiter.consume("loginAccount", { account: "a@b.lk", ip: "198.51.100.1" })).ok).toBe(true);
    expect((await limiter.consume("loginAccount", { account: "A@B.lk", ip: "198.51.100.99" })).ok).toBe(false);
    expect((await limiter.consume("loginAccount", { account: "a@b.lk", ip: "198.51.101.1" })).ok).toBe(true);
    expect((await limiter.consume("loginAccount", { account: "c@b.lk", ip: "198.51.100.1" })).ok).toBe(true);
  });

  it("views count per signed visitor (else per address) and per network on each listing; a refusal counts nowhere", async () => {
    const limiter = createRateLimiter(createMemoryStore(), { viewVisitor: { max: 2, windowSeconds: 60 } });
    const view = (visitor: string | null, ip: string, listing = 1) => ({ visitor, ip, listing });
    expect((await limiter.consume("viewVisitor", view("v1", "198.51.100.1"))).ok).toBe(true);
    expect((await limiter.consume("viewVisitor", view("v2", "198.51.100.2"))).ok).toBe(true);
    // The listing has had its views from this /24, whoever the visitor.
    expect((await limiter.consume("viewVisitor", view("v3", "198.51.100.3"))).ok).toBe(false);
    // v3 was not counted by that refusal: twice more elsewhere, then v3 is used up.
    expect((await limiter.consume("viewVisitor", view("v3", "203.0.113.1", 2))).ok).toBe(true);
    expect((await limiter.consume("viewVisitor", view("v3", "203.0.113.1", 3))).ok).toBe(true);
    expect((await limiter.consume("viewVisitor", view("v3", "192.0.2.1", 4))).ok).toBe(false);
    // Without a signed visitor id, the address is the visitor.
    expect((await limiter.check("viewVisitor", view(null, "203.0.113.1", 5))).ok).toBe(true);
    await limiter.record("viewVisitor", view(null, "192.0.2.9", 6));
    await limiter.record("viewVisitor", view(null, "192.0.2.9", 7));
    expect((await limiter.check("viewVisitor", view(null, "192.0.2.9", 8))).ok).toBe(false);
  });
});
