import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useHref,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
// A URL: in production the server inlines the file's text (components/stylesheet.tsx).
import stylesheet from "./app.css?url";
import { getSessionUser } from "./auth/auth.server";
import { AuthSync } from "./components/auth-sync";
import { LanguageSuggestionSlot } from "./components/language-switcher";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { Stylesheet } from "./components/stylesheet";
import { LocaleContext, translatorOf, useTranslation } from "./i18n";
import { isLocale, localeOfPath } from "./i18n/locales";
import { dataSaverSwitch } from "./pages/data-saver.server";
import { requestContext } from "./services.server";

// Fallback for pages without their own meta. On errors the ErrorBoundary sets the title.
export const meta: Route.MetaFunction = ({ loaderData, error }) => {
  const translate = translatorOf(isLocale(loaderData?.locale) ? loaderData.locale : "en");
  const description = { name: "description", content: translate("common.meta.defaultDescription") };
  if (error) return [description];
  return [{ title: loaderData?.siteName ?? "Bodima" }, description];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, requestId, locale, dataSaver = false } = context.get(requestContext);
  const user = await getSessionUser(request, context);
  return {
    locale,
    siteName: env.SITE_NAME,
    siteUrl: env.siteUrl,
    supportEmail: env.SUPPORT_EMAIL,
    requestId,
    user: user ? { name: user.name } : null,
    dataSaver: dataSaverSwitch(dataSaver),
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

/**
 * For the layout here. Route modules read the same with
 * useRouteLoaderData<RootData>("root") and import only the type: importing a
 * value from this module splits it into two chunks, every page paying for both.
 */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: React.ReactNode }) {
  // The language is where the page's routes start (/si, /ta or /: ADR 033), known even on an error page.
  const locale = localeOfPath(useHref("/"));
  return (
    <LocaleContext value={locale}>
      <html lang={locale}>
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="theme-color" content="#0d5f54" />
          <Stylesheet href={stylesheet} />
          {/* No frame is painted before the parser reaches the footer, so <main> is whole: a slow phone
              would otherwise paint a half-parsed page whose controls move as the rest arrives (ADR 100). */}
          <link rel="expect" href="#site-footer" blocking="render" />
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
          <Meta />
          <Links />
        </head>
        <body className="flex min-h-screen flex-col">
          {children}
          <ScrollRestoration />
          <Scripts />
        </body>
      </html>
    </LocaleContext>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation();
  const root = useRootData();
  const siteName = root?.siteName ?? "Bodima";
  const user = root?.user ?? null;
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t("common.skipToContent")}
      </a>
      <AuthSync signedIn={user !== null} />
      <SiteHeader siteName={siteName} user={user} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <SiteFooter
        siteName={siteName}
        supportEmail={root?.supportEmail ?? ""}
        signedIn={user !== null}
        dataSaver={root?.dataSaver}
      />
      <LanguageSuggestionSlot />
    </>
  );
}

export default function App() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  const root = useRootData();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A 4xx may carry its own plain message (e.g. app/security/read-form.server.ts).
  const told = isRouteErrorResponse(error) && error.status < 500 && typeof error.data === "string" ? error.data : null;
  return (
    <Shell>
      <title>{`${notFound ? t("common.errors.notFoundTitle") : t("common.errors.unexpectedTitle")} | ${root?.siteName ?? "Bodima"}`}</title>
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold">
          {notFound ? t("common.errors.notFoundTitle") : t("common.errors.unexpectedTitle")}
        </h1>
        <p className="mt-3 text-slate-600">
          {told ?? (notFound ? t("common.errors.notFoundText") : t("common.errors.unexpectedText"))}
        </p>
        {!notFound && !told && root?.requestId ? (
          <p className="mt-2 text-sm text-slate-500">{t("common.errors.requestId", { requestId: root.requestId })}</p>
        ) : null}
        <div className="mt-6 flex justify-center gap-3">
          <Link to="/" className="rounded-lg border border-slate-300 px-4 py-3 font-medium">
            {t("common.errors.goHome")}
          </Link>
          <Link to="/browse" className="rounded-lg bg-brand-700 px-4 py-3 font-medium text-white">
            {t("common.errors.browseListings")}
          </Link>
        </div>
      </div>
    </Shell>
  );
}
