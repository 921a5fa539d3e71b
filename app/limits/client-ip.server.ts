import { BlockList, isIP } from "node:net";
import type { TrustProxy } from "~/env.server";

/**
 * The address a request comes from, for rate limits and logs (ADR 007,
 * ADR 010, ADR 064).
 *
 * Without TRUST_PROXY it is the socket's peer: X-Forwarded-For is written by
 * the client and proves nothing. Every entry of that header was appended by
 * the hop after the one it names, so it is read from the right:
 * - `{ proxies }` (TRUST_PROXY=127.0.0.1, 10.0.0.0/8, …): only when a listed
 *   proxy is connecting, each entry is taken while the one who wrote it was a
 *   listed proxy; the first address that is not a listed proxy is the client.
 *   Anyone else who reaches the app's port directly is judged by their socket.
 * - `{ hops: n }` (TRUST_PROXY=1; `true` is one hop): the n-th entry from the
 *   right, whoever connects; behind exactly n proxies, and only when nobody
 *   can reach the app's port without them.
 * Taking the left-most entry (what Express's `trust proxy = true` does) would
 * let anyone pick their own key and walk past every per-IP limit.
 */
export function clientIpFrom(request: {
  socketAddress: string | undefined;
  forwardedFor: string | string[] | undefined;
  trustProxy: boolean | TrustProxy;
}): string {
  const socket = normalizeIp(request.socketAddress);
  const trust = request.trustProxy === true ? { hops: 1 } : request.trustProxy;
  if (!trust || !socket) return socket ?? "unknown";
  const header = Array.isArray(request.forwardedFor) ? request.forwardedFor.join(",") : (request.forwardedFor ?? "");
  const entries = header
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if ("hops" in trust) {
    const entry = entries.at(-Math.min(trust.hops, entries.length));
    return (entry && normalizeIp(entry)) || socket;
  }
  const trusted = proxyMatcher(trust);
  let client = socket;
  for (let i = entries.length - 1; i >= 0 && trusted(client); i--) {
    const entry = normalizeIp(entries[i]);
    // A listed proxy that forwarded nonsense: the address it was reached from is all we know.
    if (!entry) break;
    client = entry;
  }
  return client;
}

/**
 * Whether the peer on the socket may tell us about the request (X-Forwarded-Proto):
 * one of the listed proxies, or anyone with the numeric form.
 */
export function fromTrustedProxy(socketAddress: string | undefined, trustProxy: boolean | TrustProxy): boolean {
  if (!trustProxy) return false;
  if (trustProxy === true || "hops" in trustProxy) return true;
  const socket = normalizeIp(socketAddress);
  return socket !== null && proxyMatcher(trustProxy)(socket);
}

/** The same trust as Express's `trust proxy` setting (req.protocol, req.hostname, req.ip). */
export function expressTrustProxy(trustProxy: TrustProxy | false): number | string[] | false {
  if (!trustProxy) return false;
  return "hops" in trustProxy ? trustProxy.hops : [...trustProxy.proxies];
}

const matchers = new WeakMap<TrustProxy, (address: string) => boolean>();

/** A test for "is this address one of the listed proxies", built once per setting. */
function proxyMatcher(trust: { proxies: readonly string[] }): (address: string) => boolean {
  let match = matchers.get(trust);
  if (!match) {
    const list = new BlockList();
    for (const entry of trust.proxies) {
      const [address, prefix] = entry.split("/");
      const normal = normalizeIp(address);
      if (!normal) continue;
      const family = isIP(normal) === 4 ? "ipv4" : "ipv6";
      // An IPv4 range given as IPv4-mapped IPv6 (::ffff:10.0.0.0/104) is normalised to IPv4 with its prefix.
      const bits = prefix === undefined ? null : Number(prefix) - (family === "ipv4" && isIP(address) === 6 ? 96 : 0);
      if (bits === null) list.addAddress(normal, family);
      else list.addSubnet(normal, Math.max(0, bits), family);
    }
    match = (address) => list.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
    matchers.set(trust, match);
  }
  return match;
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
 * apart (ADR 017): IPv4 per /24 ("203.0.113.0/24"), IPv6 per /64. One home,
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
