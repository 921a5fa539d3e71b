import { isIP } from "node:net";

/**
 * The address a request comes from, for rate limits and logs (issue 4 "Abuse limits").
 *
 * Without TRUST_PROXY it is the socket's peer: X-Forwarded-For is written by the
 * client and proves nothing. With TRUST_PROXY (one reverse proxy in front of us)
 * it is the RIGHT-most X-Forwarded-For entry, the address our proxy saw: every
 * entry left of it was sent by the client, so taking the left-most one (what
 * Express's `trust proxy = true` does) would let anyone pick their own key and
 * walk past every per-IP limit. A chain of proxies would need a hop count.
 */
export function clientIpFrom(request: {
  socketAddress: string | undefined;
  forwardedFor: string | string[] | undefined;
  trustProxy: boolean;
}): string {
  const socket = normalizeIp(request.socketAddress);
  if (!request.trustProxy) return socket ?? "unknown";
  const header = Array.isArray(request.forwardedFor) ? request.forwardedFor.join(",") : (request.forwardedFor ?? "");
  const nearest = header
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .at(-1);
  return normalizeIp(nearest) ?? socket ?? "unknown";
}

/**
 * One spelling per address: IPv4-mapped IPv6 (::ffff:1.2.3.4) becomes 1.2.3.4,
 * IPv6 is lower-cased and compressed, ports ("1.2.3.4:5678", "[::1]:80") and
 * zone ids (fe80::1%eth0) are dropped. Null when the text is not an address.
 */
export function normalizeIp(raw: string | undefined | null): string | null {
  if (!raw) return null;
  let text = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  text = text.replace(/%.*$/, "").toLowerCase();
  const version = isIP(text);
  if (version === 4) return text;
  if (version !== 6) return null;
  const groups = expandIpv6(text);
  // ::ffff:a.b.c.d, also spelled ::ffff:0102:0304
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".");
  }
  return compressIpv6(groups);
}

/**
 * The key per-IP limits count under. One IPv6 customer usually holds a whole /64,
 * so counting single IPv6 addresses would give them billions of fresh counters.
 */
export function ipLimitKey(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  return `${compressIpv6([...expandIpv6(ip).slice(0, 4), 0, 0, 0, 0])}/64`;
}

/**
 * The network a request comes from, for rules that must tell independent people
 * apart (issue 9): IPv4 per /24 ("203.0.113.0/24"), IPv6 per /64. One home,
 * office or phone operator's NAT usually hands out addresses within one of
 * these, so a new address from the same network is not a new person.
 * An IPv4-mapped IPv6 address counts as the IPv4 address it carries; any
 * spelling of an address (brackets, port, zone, case) gives the same origin.
 * Anything that is not an address (the "unknown" socket) is its own origin.
 */
export function networkOrigin(ip: string): string {
  const address = normalizeIp(ip);
  if (!address) return ip.trim().toLowerCase();
  if (isIP(address) === 6) return ipLimitKey(address);
  return `${address.split(".").slice(0, 3).join(".")}.0/24`;
}

/**
 * The network for rules where one person must not count as several (the
 * 'Already let?' answers, ADR 064): as networkOrigin, but IPv6 per /56. Many
 * providers give one home or phone a whole /56 (256 /64 networks), so a /64
 * is no new person there.
 */
export function householdNetwork(ip: string): string {
  const address = normalizeIp(ip);
  if (!address || isIP(address) !== 6) return networkOrigin(ip);
  const groups = expandIpv6(address);
  return `${compressIpv6([groups[0], groups[1], groups[2], groups[3] & 0xff00, 0, 0, 0, 0])}/56`;
}

/** Eight 16-bit groups of a valid IPv6 address (an embedded IPv4 tail included). */
function expandIpv6(ip: string): number[] {
  let text = ip;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill("0"), ...right].map((g) => parseInt(g, 16));
}

/** RFC 5952: lower case, no leading zeros, the longest run (2+) of zero groups as "::". */
function compressIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}
