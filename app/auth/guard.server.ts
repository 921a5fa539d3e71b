import {
  createContext,
  data,
  type MiddlewareFunction,
  type RouterContextProvider,
  redirect,
  redirectDocument,
} from "react-router";
import { localeOfPath, localePath, withoutLocale } from "~/i18n/locales";
import { chosenLanguage, rememberedLanguagePath, samePageInLanguage } from "~/security/language-cookie.server";
import { isSameOrigin, isWrite } from "~/security/origin.server";
import { requestContext } from "~/services.server";
import { getSessionUser, type SessionUser } from "./auth.server";

/**
 * One way to guard a request (ADR 025): who is signed in, whether
 * their role may use the page, and whether a write comes from our own pages,
 * judged by one function for the dashboard and admin layouts (their
 * middleware) and for the routes below them (`user`, `write`).
 */

type GuardArgs = { request: Request; context: Readonly<RouterContextProvider> };

/** What a layout asks of every request below it. */
export type GuardRule = { role?: "moderator" };

export type Refusal = "signedOut" | "forbidden" | "crossSite";

export type Verdict = { ok: true; user: SessionUser } | { ok: false; refusal: Refusal };

/** The verdict on a request under a rule, for routes that word every refusal themselves (the photo endpoints). */
export async function judgeRequest({ request, context }: GuardArgs, rule: GuardRule = {}): Promise<Verdict> {
  const user = await getSessionUser(request, context);
  if (!user) return { ok: false, refusal: "signedOut" };
  if (rule.role && user.role !== rule.role) return { ok: false, refusal: "forbidden" };
  if (isWrite(request.method) && !isSameOrigin(request, context.get(requestContext).env.siteUrl))
    return { ok: false, refusal: "crossSite" };
  return { ok: true, user };
}

/** The answer to a refusal when the route has no words of its own (thrown: a redirect, or the nearest error page). */
function refusalAnswer(refusal: Refusal, request: Request, from: "middleware" | "loader") {
  if (refusal === "signedOut") {
    // Back here after logging in; a path of our own, so the login page's redirect check lets it through.
    // redirectTo is inside the page's language, like every path the router resolves (ADR 033). React
    // Router adds /si or /ta to a redirect thrown by a loader or an action, not to one thrown by
    // middleware: that one names the language itself.
    const url = new URL(request.url);
    const login = `/login?redirectTo=${encodeURIComponent(withoutLocale(url.pathname) + url.search)}`;
    return redirect(from === "middleware" ? localePath(localeOfPath(url.pathname), login) : login);
  }
  if (refusal === "forbidden") return data({ forbidden: true }, { status: 403 });
  return data(null, { status: 403 });
}

/** Only reads are sent to another language: a form post is answered where it was sent. */
function isPageRead(request: Request): boolean {
  return request.method === "GET" || request.method === "HEAD";
}

export type Guard = {
  /**
   * The layout's middleware: every request below the layout is judged before
   * any of its loaders or actions runs, and a visitor is sent to log in there.
   * A wrong role and a cross-site write are answered where a loader or action
   * asks for its user (below): React Router shows an error thrown by middleware
   * on the root's error page, without any loader data, and a middleware cannot
   * answer with an action's data (a form's own refusal message).
   */
  middleware: MiddlewareFunction<Response>;
  /** The user of a request that passed; any refusal is thrown (login redirect, 403). */
  user(args: GuardArgs): Promise<SessionUser>;
  /**
   * For actions that word a cross-site refusal themselves (the form shows it):
   * the user, or `ok: false` for a write that did not come from our pages.
   * A visitor or a wrong role is still thrown.
   */
  write(args: GuardArgs): Promise<{ ok: true; user: SessionUser } | { ok: false; refusal: "crossSite" }>;
};

export function createGuard(rule: GuardRule): Guard {
  // The middleware's verdict, for the loaders and the action of the same request.
  const verdicts = createContext<{ request: Request; verdict: Promise<Verdict> } | null>(null);
  function judge(args: GuardArgs): Promise<Verdict> {
    const known = args.context.get(verdicts);
    if (known?.request === args.request) return known.verdict;
    const verdict = judgeRequest(args, rule);
    args.context.set(verdicts, { request: args.request, verdict });
    return verdict;
  }
  return {
    async middleware(args, next) {
      // The owner and moderator areas open in the language the reader chose in this browser (ADR 036),
      // before the sign-in check, so a visitor also logs in in it. A whole document load: the other
      // language is another router (ADR 033).
      const { request } = args;
      if (isPageRead(request)) {
        const remembered = rememberedLanguagePath(new URL(request.url), request.headers.get("Cookie"));
        if (remembered) throw redirectDocument(remembered);
      }
      const verdict = await judge(args);
      if (!verdict.ok && verdict.refusal === "signedOut")
        throw refusalAnswer(verdict.refusal, args.request, "middleware");
      // Nothing chosen in this browser: the account's preferred language (Settings, first set by the
      // sign-up page), so an English link (the nav, an email) opens a Tamil owner's dashboard in Tamil
      // (ADR 069).
      if (verdict.ok && isPageRead(request) && !chosenLanguage(request.headers.get("Cookie"))) {
        const preferred = samePageInLanguage(new URL(request.url), verdict.user.locale);
        if (preferred) throw redirectDocument(preferred);
      }
      return next();
    },
    async user(args) {
      const verdict = await judge(args);
      if (!verdict.ok) throw refusalAnswer(verdict.refusal, args.request, "loader");
      return verdict.user;
    },
    async write(args) {
      const verdict = await judge(args);
      if (verdict.ok) return verdict;
      if (verdict.refusal === "crossSite") return { ok: false, refusal: "crossSite" };
      throw refusalAnswer(verdict.refusal, args.request, "loader");
    },
  };
}

/** The dashboard: any signed-in, active account. */
export const signedIn = createGuard({});

/** The admin pages: moderators only. */
export const moderatorsOnly = createGuard({ role: "moderator" });
