import { describe, expect, it } from "vitest";
import { networkOrigin } from "./network-origin";

describe("networkOrigin", () => {
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
