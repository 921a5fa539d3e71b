import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto";
import { randomChunk } from "./random.server";

/**
 * The visitor id (cookie `bodima_vid`): one random id per browser, signed with
 * the app's secret, so only ids this server issued count (ADR 017).
 * It counts views (one unique view per visitor) and tells reporters apart
 * (auto-hide needs different browsers). An unsigned or tampered value is
 * treated as no cookie at all: a script cannot make up fresh visitors.
 *
 * The cookie is HttpOnly, SameSite=Lax, Secure on https, and lasts a year.
 * It is only ever set on responses that are not cached (server/pages.ts adds
 * it to a cached page's answer, never to the stored page).
 */
export const VISITOR_COOKIE = "bodima_vid";
export const VISITOR_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
/** The shape of the random ids in view cookies (this one and the session's): 128 bits in hex. */
export const ID_PATTERN = /^[a-f0-9]{32}$/;
const SIGNED_PATTERN = /^([a-f0-9]{32})\.([A-Za-z0-9_-]{43})$/;

/**
 * The secret as a key object, made once: createHmac given the text imports
 * it anew each time, about half the cost of a signature.
 */
const keys = new Map<string, KeyObject>();

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, "utf8"));
    keys.set(secret, key);
  }
  return key;
}

function mac(secret: string, id: string): Buffer {
  return createHmac("sha256", keyOf(secret)).update(`bodima-visitor:${id}`).digest();
}

/**
 * Cookie values this process verified lately, with the secret that signed them:
 * a browser sends the same value with every request, and checking its signature
 * each time was a third of the cost of a cached listing page (ADR 044). Only
 * values that passed verification are kept, so a made-up value is always checked.
 */
const verified = new Map<string, { secret: string; id: string }>();
const VERIFIED_KEPT = 10_000;

/** The cookie value for an id: `<id>.<HMAC-SHA256, base64url>`. */
export function signVisitorId(secret: string, id: string): string {
  if (!ID_PATTERN.test(id)) throw new Error("a visitor id is 32 hex characters");
  return `${id}.${mac(secret, id).toString("base64url")}`;
}

/** The id in a cookie value this server signed; null for anything else. */
export function verifyVisitorId(secret: string, value: string | null | undefined): string | null {
  if (!value) return null;
  const known = verified.get(value);
  if (known && known.secret === secret) return known.id;
  const match = SIGNED_PATTERN.exec(value);
  if (!match) return null;
  // Compared as text: the last base64url character carries two unused bits, so
  // decoding first would accept four spellings of one signature.
  const given = Buffer.from(match[2], "latin1");
  const expected = Buffer.from(mac(secret, match[1]).toString("base64url"), "latin1");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (verified.size >= VERIFIED_KEPT) verified.clear();
  verified.set(value, { secret, id: match[1] });
  return match[1];
}

export function newRandomId(): string {
  return randomChunk(16).toString("hex");
}

/** The Set-Cookie line that gives a browser this visitor id. */
export function visitorCookieHeader(secret: string, id: string, options: { secure: boolean }): string {
  const parts = [
    `${VISITOR_COOKIE}=${signVisitorId(secret, id)}`,
    "Path=/",
    `Max-Age=${VISITOR_MAX_AGE_SECONDS}`,
    "HttpOnly",
    "SameSite=Lax",
  ];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

/** One cookie's value from a Cookie header. */
export function readCookie(cookieHeader: string | null | undefined, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const separator = part.indexOf("=");
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return null;
}

/** The signed visitor id a request carries, or null (none, unsigned or tampered). */
export function visitorIdFrom(cookieHeader: string | null | undefined, secret: string): string | null {
  return verifyVisitorId(secret, readCookie(cookieHeader, VISITOR_COOKIE));
}

/**
 * The request's visitor id, or a new one with the Set-Cookie line that keeps it
 * (`issued`: a new id proves nothing about the browser yet). `forged` says the
 * request carried a visitor cookie this server did not sign (made up, tampered
 * with, or from before ids were signed): nothing it asks for should count.
 */
export function visitorIdentity(cookieHeader: string | null | undefined, secret: string, options: { secure: boolean }) {
  const raw = readCookie(cookieHeader, VISITOR_COOKIE);
  const known = verifyVisitorId(secret, raw);
  if (known) return { visitorId: known, issued: false, forged: false, setCookie: null };
  const visitorId = newRandomId();
  return { visitorId, issued: true, forged: raw !== null, setCookie: visitorCookieHeader(secret, visitorId, options) };
}
