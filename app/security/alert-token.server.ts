import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The links of search-alert emails (ADR 058), signed with the
 * app's secret so none can be guessed or turned to another alert:
 * - `/alerts/confirm/{alert id}.{signature}` confirms one alert (double opt-in);
 * - `/alerts/stop/{alert id}.{signature}` stops one alert (also the List-Unsubscribe URL);
 * - `/alerts/manage/{token}` lists every alert of one address: since ADR 067 the
 *   token is random (newManageToken), stored only as its SHA-256, expiring and
 *   revocable (app/models/alert-manage-links.server.ts). The old signed manage
 *   links (an HMAC of the address) are only recognised, by the same hash, to
 *   offer a fresh link.
 * Each purpose signs its own text, so a stop link is no confirmation link.
 */
export type AlertLinkPurpose = "confirm" | "stop";

const ALERT_TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const MANAGE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const sign = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("base64url");

/** A new alert's id: 16 random bytes, so an id never comes back for another alert. */
export function newAlertId(): string {
  return randomBytes(16).toString("base64url");
}

export function alertToken(secret: string, purpose: AlertLinkPurpose, alertId: string): string {
  return `${alertId}.${sign(secret, `bodima-alert-${purpose}:${alertId}`)}`;
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given, "latin1");
  const b = Buffer.from(expected, "latin1");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The alert a link is for, or null when it was made up, altered or signed for another purpose. */
export function readAlertToken(secret: string, purpose: AlertLinkPurpose, token: string): string | null {
  const match = ALERT_TOKEN.exec(token);
  if (!match) return null;
  return sameText(match[2], sign(secret, `bodima-alert-${purpose}:${match[1]}`)) ? match[1] : null;
}

/** A new manage link's token: 32 random bytes, so it can be neither guessed nor worked out from the address. */
export function newManageToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps of a manage token (new or old): its SHA-256, so the table alone opens no manage page. */
export function manageKeyOf(token: string): string | null {
  return MANAGE_TOKEN.test(token) ? createHash("sha256").update(token).digest("base64url") : null;
}
