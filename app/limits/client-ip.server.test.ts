import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";
import {
  clientIpFrom,
  expressTrustProxy,
  fromTrustedProxy,
  householdNetwork,
  ipLimitKey,
  networkOrigin,
  normalizeIp,
} from "./client-ip.server";

describe("client IP", () => {
  it("is the socket's address when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientIpFrom({ socketAddress: "203.0.113.7", forwardedFor: "1.1.1.1", trustProxy: false })).toBe(
      "203.0.113.7",
    );
    expect(clientIpFrom({ socketAddress: "::ffff:203.0.113.7", forwardedFor: undefined, trustProxy: false })).toBe(
      "203.0.113.7",
    );
    expect(clientIpFrom({ socketAddress: undefined, forwardedFor: "1.1.1.1", trustProxy: false })).toBe("unknown");
  });

  it("behind a trusted proxy, is the right-most X-Forwarded-For entry (what the proxy saw), not a client-supplied one", () => {
    const socketAddress = "10.0.0.2";
    expect(clientIpFrom({ socketAddress, forwardedFor: "198.51.100.9", trustProxy: true })).toBe("198.51.100.9");
    // The client sent "X-Forwarded-For: 6.6.6.6"; the proxy appended the real address.
    expect(clientIpFrom({ socketAddress, forwardedFor: "6.6.6.6, 198.51.100.9", trustProxy: true })).toBe(
      "198.51.100.9",
    );
    expect(clientIpFrom({ socketAddress, forwardedFor: ["6.6.6.6", "198.51.100.9 "], trustProxy: true })).toBe(
      "198.51.100.9",
    );
    // No header, or garbage in it: the socket.
    expect(clientIpFrom({ socketAddress, forwardedFor: undefined, trustProxy: true })).toBe("10.0.0.2");
    expect(clientIpFrom({ socketAddress, forwardedFor: "1.1.1.1, not-an-ip", trustProxy: true })).toBe("10.0.0.2");
    expect(clientIpFrom({ socketAddress, forwardedFor: "", trustProxy: true })).toBe("10.0.0.2");
  });

  it("with TRUST_PROXY naming the proxies, believes forwarded addresses only from them (ADR 064)", () => {
    const trustProxy = parseEnv({ TRUST_PROXY: "127.0.0.1, 10.0.0.0/8, fd00::/8" }).TRUST_PROXY;
    const from = (socketAddress: string, forwardedFor?: string) =>
      clientIpFrom({ socketAddress, forwardedFor, trustProxy });
    // Someone reaching the app's port directly writes what they like: their socket counts.
    expect(from("198.51.100.20", "203.0.113.5")).toBe("198.51.100.20");
    expect(from("2001:db8::7", "203.0.113.5")).toBe("2001:db8::7");
    // Through the proxy: the address it saw; inner proxies in the ranges are walked past.
    expect(from("::ffff:127.0.0.1", "6.6.6.6, 203.0.113.5")).toBe("203.0.113.5");
    expect(from("10.0.0.2", "6.6.6.6, 2001:db8::5, fd00::3, 10.4.0.1")).toBe("2001:db8::5");
    // Every hop a listed proxy: the left-most address, the farthest anyone vouched for.
    expect(from("127.0.0.1", "10.0.0.9")).toBe("10.0.0.9");
    // A listed proxy with no header, or one that forwarded nonsense: the last address that made sense.
    expect(from("127.0.0.1")).toBe("127.0.0.1");
    expect(from("127.0.0.1", "203.0.113.5, not-an-ip")).toBe("127.0.0.1");
    expect(fromTrustedProxy("10.9.8.7", trustProxy)).toBe(true);
    expect(fromTrustedProxy("11.0.0.1", trustProxy)).toBe(false);
    expect(expressTrustProxy(trustProxy)).toEqual(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);
  });

  it("keeps the numeric TRUST_PROXY: n proxies, the n-th entry from the right, whoever connects", () => {
    const twoHops = parseEnv({ TRUST_PROXY: "2" }).TRUST_PROXY;
    expect(twoHops).toEqual({ hops: 2 });
    const socketAddress = "198.51.100.20";
    expect(clientIpFrom({ socketAddress, forwardedFor: "6.6.6.6, 203.0.113.5, 10.0.0.1", trustProxy: twoHops })).toBe(
      "203.0.113.5",
    );
    expect(clientIpFrom({ socketAddress, forwardedFor: "203.0.113.5", trustProxy: twoHops })).toBe("203.0.113.5");
    expect(fromTrustedProxy(socketAddress, twoHops)).toBe(true);
    expect(expressTrustProxy(twoHops)).toBe(2);
    expect(expressTrustProxy(false)).toBe(false);
  });

  it("normalises IPv4-mapped and differently spelled IPv6 addresses, ports and zones", () => {
    expect(normalizeIp("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(normalizeIp("::FFFF:0102:0304")).toBe("1.2.3.4");
    expect(normalizeIp("1.2.3.4:5678")).toBe("1.2.3.4");
    expect(normalizeIp("[2001:DB8:0:0:0:0:0:1]:443")).toBe("2001:db8::1");
    expect(normalizeIp("2001:0db8:0000:0000:0001:0000:0000:0001")).toBe("2001:db8::1:0:0:1");
    expect(normalizeIp("fe80::1%eth0")).toBe("fe80::1");
    expect(normalizeIp("::1")).toBe("::1");
    expect(normalizeIp("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2:3:4:5:6");
    expect(normalizeIp("1.2.3")).toBeNull();
    expect(normalizeIp("<script>")).toBeNull();
    expect(normalizeIp("")).toBeNull();
  });

  it("counts IPv6 per /64 and IPv4 per address", () => {
    expect(ipLimitKey("2001:db8:aa:bb:1:2:3:4")).toBe("2001:db8:aa:bb::/64");
    expect(ipLimitKey("2001:db8:aa:bb::ffff")).toBe(ipLimitKey("2001:db8:aa:bb:1:2:3:4"));
    expect(ipLimitKey("2001:db8:aa:bc::1")).not.toBe(ipLimitKey("2001:db8:aa:bb::1"));
    expect(ipLimitKey("203.0.113.7")).toBe("203.0.113.7");
    expect(ipLimitKey("unknown")).toBe("unknown");
  });

  it("groups network origins per IPv4 /24 and IPv6 /64", () => {
    expect(networkOrigin("203.0.113.7")).toBe("203.0.113.0/24");
    expect(networkOrigin("203.0.113.250")).toBe(networkOrigin("203.0.113.7"));
    expect(networkOrigin("203.0.114.7")).not.toBe(networkOrigin("203.0.113.7"));
    expect(networkOrigin("2001:db8:aa:bb:1:2:3:4")).toBe("2001:db8:aa:bb::/64");
    expect(networkOrigin("2001:db8:aa:bb::9")).toBe(networkOrigin("2001:db8:aa:bb:1:2:3:4"));
    expect(networkOrigin("2001:db8:aa:bc::1")).not.toBe(networkOrigin("2001:db8:aa:bb::1"));
    expect(networkOrigin("unknown")).toBe("unknown");
  });
});

describe("householdNetwork (ADR 064)", () => {
  it("groups IPv6 by /56, IPv4 by /24 as networkOrigin does", () => {
    expect(householdNetwork("2001:db8:aa:1234:1:2:3:4")).toBe("2001:db8:aa:1200::/56");
    for (const same of ["2001:db8:aa:1200::1", "2001:db8:aa:12ff:ffff::9", "[2001:DB8:AA:1201::5]:443"])
      expect(householdNetwork(same), same).toBe("2001:db8:aa:1200::/56");
    expect(householdNetwork("2001:db8:aa:1300::1")).toBe("2001:db8:aa:1300::/56");
    expect(householdNetwork("2001:db8:ab:1200::1")).not.toBe(householdNetwork("2001:db8:aa:1200::1"));
    expect(householdNetwork("::ffff:203.0.113.7")).toBe("203.0.113.0/24");
    expect(householdNetwork("203.0.113.250")).toBe("203.0.113.0/24");
    expect(householdNetwork("unknown")).toBe("unknown");
  });
});

describe("networkOrigin, every spelling", () => {
  it("groups IPv4 addresses by /24", () => {
    expect(networkOrigin("203.0.113.7")).toBe("203.0.113.0/24");
    expect(networkOrigin("203.0.113.250")).toBe(networkOrigin("203.0.113.7"));
    expect(networkOrigin("203.0.114.7")).not.toBe(networkOrigin("203.0.113.7"));
    expect(networkOrigin("10.1.2.3")).toBe("10.1.2.0/24");
  });

  it("treats IPv4-mapped IPv6 as the IPv4 address, in either spelling", () => {
    expect(networkOrigin("::ffff:203.0.113.7")).toBe("203.0.113.0/24");
    expect(networkOrigin("::FFFF:cb00:7107")).toBe("203.0.113.0/24");
    expect(networkOrigin("[::ffff:203.0.113.9]:443")).toBe("203.0.113.0/24");
  });

  it("groups IPv6 addresses by /64, however they are spelled", () => {
    expect(networkOrigin("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(networkOrigin("2001:DB8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(networkOrigin("2001:0db8:0001:0002:0:0:0:ffff")).toBe("2001:db8:1:2::/64");
    expect(networkOrigin("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(networkOrigin("2001:db8::1")).toBe("2001:db8::/64");
    expect(networkOrigin("2001:db8:0:0:1::1")).toBe(networkOrigin("2001:db8::9"));
    expect(networkOrigin("fe80::1%eth0")).toBe("fe80::/64");
    expect(networkOrigin("::1")).toBe("::/64");
    expect(networkOrigin("[2001:db8:1:2::5]:8080")).toBe("2001:db8:1:2::/64");
  });

  it("keeps anything that is not an address as its own group", () => {
    expect(networkOrigin("unknown")).toBe("unknown");
  });
});
