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
 * A request from a browser on this very machine: the client address is
 * loopback and nothing forwarded it. A reverse proxy on the same machine
 * connects from 127.0.0.1 too, for anyone on the internet, so a request that
 * carries forwarding headers never counts as local, whatever TRUST_PROXY says.
 */
export function isLoopbackRequest(request: Request, clientIp: string | undefined): boolean {
  if (request.headers.has("x-forwarded-for") || request.headers.has("forwarded") || request.headers.has("x-real-ip"))
    return false;
  return isLoopbackIp(clientIp);
}
