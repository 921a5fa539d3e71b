import { isLocale } from "~/i18n/locales";
import { languageCookieHeader, languageSwitchLocation } from "~/security/language-cookie.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/language.$locale";

/**
 * The language switcher's link (ADR 036): remembers the
 * choice in a cookie and sends the reader to the same page in that language.
 * Works without JavaScript; never cached (it sets a cookie).
 */
export function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isLocale(params.locale)) {
    return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const { env } = context.get(requestContext);
  const next = new URL(request.url).searchParams.get("next");
  return new Response(null, {
    status: 303,
    headers: {
      Location: languageSwitchLocation(params.locale, next, env.siteUrl),
      "Set-Cookie": languageCookieHeader(params.locale, { secure: env.siteUrl.startsWith("https:") }),
      "Cache-Control": "no-store",
    },
  });
}
