import { t } from "~/i18n";
import { safeRedirect } from "~/lib/safe-redirect";
import { isSameOrigin } from "./origin.server";
import { readForm } from "./read-form.server";
import { readCookie } from "./visitor-id.server";
import "virtual:catalogue/saver-server";
import "virtual:catalogue/security";

/**
 * Data saver (ADR 090): photos only on a tap, at their smallest size, and no
 * JavaScript on the read-only public pages. On when the browser asks for it
 * (`Save-Data: on`) or the footer's switch remembered it in this cookie; the
 * switch's answer wins over the header, so someone whose browser always sends
 * it can still turn it off. The page cache keys on the result (server/pages.ts).
 */
export const DATA_SAVER_COOKIE = "bodima_saver";
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export type SaverChoice = "on" | "off";

export function isSaverChoice(value: unknown): value is SaverChoice {
  return value === "on" || value === "off";
}

/** Whether a request gets data-saver pages: the remembered choice, else the Save-Data header. */
export function dataSaverOn(cookieHeader: string | null | undefined, saveData: string | null | undefined): boolean {
  const chosen = readCookie(cookieHeader, DATA_SAVER_COOKIE);
  if (isSaverChoice(chosen)) return chosen === "on";
  return saveData?.trim().toLowerCase() === "on";
}

export function dataSaverCookieHeader(choice: SaverChoice, options: { secure: boolean }): string {
  const parts = [`${DATA_SAVER_COOKIE}=${choice}`, "Path=/", `Max-Age=${ONE_YEAR_SECONDS}`, "HttpOnly", "SameSite=Lax"];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

const PLAIN = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };

/**
 * The footer switch's answer (app/routes/data-saver.ts): the choice remembered
 * in a cookie and a 303 back to the page that posted it, its Referer (a path
 * of ours, on SITE_URL: ADR 062; the home page when there is none). Not a
 * field of the form: a cached page is rendered at its normalised URL, and a
 * field holding the address would not match the one the browser shows (the
 * shortlist's 'Back' does the same). A plain 403 for a post from another
 * site's page (or naming none), a plain 400 for anything but on or off.
 */
export async function switchDataSaver(
  request: Request,
  env: { siteUrl: string; SITE_NAME: string },
): Promise<Response> {
  if (!isSameOrigin(request, env.siteUrl)) {
    return new Response(t("security.foreignOrigin.text", { siteName: env.SITE_NAME }), { status: 403, headers: PLAIN });
  }
  const form = await readForm(request);
  const choice = form.get("saver");
  if (!isSaverChoice(choice)) return new Response(t("saverServer.badChoice"), { status: 400, headers: PLAIN });
  const back = safeRedirect(request.headers.get("referer"), "/", env.siteUrl);
  return new Response(null, {
    status: 303,
    headers: {
      Location: new URL(back, env.siteUrl).href,
      "Set-Cookie": dataSaverCookieHeader(choice, { secure: env.siteUrl.startsWith("https:") }),
      "Cache-Control": "no-store",
    },
  });
}
