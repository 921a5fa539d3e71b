import { isIP } from "node:net";

/**
 * The network a client address belongs to, for rules that must not be passed
 * by changing address inside one network (issue 9): an IPv4 /24 ("203.0.113.0/24")
 * or an IPv6 /64 ("2001:db8:1:2::/64", what one customer usually holds). An
 * IPv4-mapped IPv6 address (::ffff:203.0.113.7) is the IPv4 address it carries.
 * Anything that is not an address ("unknown") is its own group, as written.
 */
export function networkOrigin(ip: string): string {
  let text = ip.trim().toLowerCase().replace(/%.*$/, "");
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1];
  const version = isIP(text);
  if (version === 4) return ipv4Group(text);
  if (version !== 6) return text;
  const groups = ipv6Groups(text);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return ipv4Group([groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join("."));
  }
  const prefix = groups.slice(0, 4);
  // Trailing zero groups of the prefix fold into "::" (2001:db8::/64, ::/64).
  while (prefix.length > 0 && prefix.at(-1) === 0) prefix.pop();
  return `${prefix.map((g) => g.toString(16)).join(":")}::/64`;
}

function ipv4Group(ip: string): string {
  const [a, b, c] = ip.split(".").map(Number);
  return `${a}.${b}.${c}.0/24`;
}

/** Eight 16-bit groups of a valid IPv6 address (an embedded IPv4 tail included). */
function ipv6Groups(ip: string): number[] {
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
