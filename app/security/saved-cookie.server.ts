import { SAVED_COOKIE } from "~/lib/saved-cookie";
import { VISITOR_MAX_AGE_SECONDS } from "./visitor-id.server";

/** The Set-Cookie line that tells the browser's script which places are saved (an empty list clears it). */
export function savedCookieHeader(ids: readonly number[], options: { secure: boolean }): string {
  const parts = [
    `${SAVED_COOKIE}=${ids.join(".")}`,
    "Path=/",
    `Max-Age=${ids.length > 0 ? VISITOR_MAX_AGE_SECONDS : 0}`,
  ];
  // Not HttpOnly: the script reads it. SameSite=Lax like every cookie of ours.
  parts.push("SameSite=Lax");
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}
