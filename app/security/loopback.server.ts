import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";
import { normalizeIp } from "~/limits/client-ip.server";

/** 127.0.0.0/8 and ::1 (IPv4-mapped loopback is normalised to 127.x first). */
export function isLoopbackIp(ip: string | null | undefined): boolean {
  const address = normalizeIp(ip);
  if (!address) return false;
  if (isIP(address) === 4) return address.startsWith("127.");
  return address === "::1";
}

/**
 * Headers by which a proxy says it passed a request on for someone else: the
 * standard one, the de-facto X-Forwarded-* family, nginx's X-Real-IP and the
 * client-address headers of the usual CDNs and load balancers.
 */
const FORWARDING_HEADERS = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-real-ip",
  "x-client-ip",
  "x-cluster-client-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "fastly-client-ip",
  "via",
] as const;

/** A fetch Request's headers, or a Node request's. */
type RequestHeaders = Headers | IncomingHttpHeaders;

function hasHeader(headers: RequestHeaders, name: string): boolean {
  return headers instanceof Headers ? headers.has(name) : headers[name] !== undefined;
}

/**
 * A request from a program on this very machine: the client address is
 * loopback and nothing forwarded it. A reverse proxy on the same machine
 * connects from 127.0.0.1 too, for anyone on the internet, so a request that
 * carries any forwarding header never counts as local, whatever TRUST_PROXY
 * says. The one test for every such check (/metrics without a token, the dev
 * outbox). A proxy that adds none of these headers cannot be told apart: that
 * is why a public site's /metrics needs METRICS_TOKEN (server/metrics.ts).
 */
export function isLoopbackRequest(headers: RequestHeaders, clientAddress: string | null | undefined): boolean {
  for (const name of FORWARDING_HEADERS) if (hasHeader(headers, name)) return false;
  return isLoopbackIp(clientAddress);
}
