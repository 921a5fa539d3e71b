/**
 * The `bodima_saved` cookie: the ad numbers in a browser's shortlist, readable
 * by the page's script (ADR 054). Cached public pages are the same for every
 * visitor, so a card cannot be rendered as 'Saved' on the server; the script
 * marks it from this cookie instead. Only a hint for display: the server
 * writes it from the stored list after every change and never reads it.
 */
export const SAVED_COOKIE = "bodima_saved";

/** The ad numbers the cookie names (anything else in it is ignored). */
export function savedIdsIn(cookieHeader: string): number[] {
  const match = /(?:^|;\s*)bodima_saved=([\d.]*)/.exec(cookieHeader);
  return match ? match[1].split(".").filter(Boolean).map(Number) : [];
}
