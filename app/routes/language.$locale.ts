import { isLocale } from "~/i18n/locales";
import { languageCookieHeader, languageSwitchTarget } from "~/security/language-cookie.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/language.$locale";

/**
 * The language switcher's link (issue 11 point 3, ADR 036): remembers the
 * choice in a cookie and sends the reader to the same page in that language.
 * Works without JavaScript; never cached (it sets a cookie).
 */
export function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isLocale(params.locale)) {
    return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const { env } = context.get(requestContext);
  const url = new URL(request.url);
  const target = languageSwitchTarget(params.locale, url.searchParams.get("next"), env.siteUrl);
  return new Response(null, {
    status: 303,
    headers: {
      // Absolute, on the request's own origin: React Router would put the basename of a
      // link followed from a Sinhala or Tamil page (/si/language/ta) before a bare path.
      Location: new URL(target, url.origin).href,
      "Set-Cookie": languageCookieHeader(params.locale, { secure: env.siteUrl.startsWith("https:") }),
      "Cache-Control": "no-store",
    },
  });
}
