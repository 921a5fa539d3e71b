import { betterAuth } from "better-auth";
import { APIError } from "better-auth/api";
import type { Logger } from "pino";
import { createContext, type RouterContextProvider } from "react-router";
import type { DB } from "~/db/db.server";
import { type Locale, localeOrDefault, localePath } from "~/i18n/locales";
import { translatorFor } from "~/i18n/translator.server";
import { currentTime } from "~/lib/clock";
import { enqueueMail } from "~/models/outbox.server";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/schemas/signup";
import { type RequestInfo, requestContext } from "~/services.server";
import { hashPassword, verifyPassword } from "./password-hash.server";
import { AUTH_COOKIE_PREFIX, hasSessionCookie, SESSION_DAYS } from "./session-cookie";
import "virtual:catalogue/accounts";
import { escapeHtml } from "~/lib/escape-html";

const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;
/** A session in use is refreshed (new expiry, new cookie) at most once a day. */
export const SESSION_UPDATE_AGE_SECONDS = 24 * 60 * 60;

/** When a session signed in at `createdAt` ends, however often it is used (ADR 019). */
export function sessionHardExpiry(createdAt: Date | string): Date {
  return new Date(new Date(createdAt).getTime() + SESSION_MS);
}
export const RESET_TOKEN_SECONDS = 60 * 60;
/** A sign-up's confirmation link works for a day (ADR 066); 'Send the link again' makes a new one. */
export const CONFIRM_EMAIL_TOKEN_SECONDS = 24 * 60 * 60;

/** The page an address confirmation link opens, in the account's language (ADR 066). */
export function confirmEmailUrl(siteUrl: string, locale: Locale, token: string): string {
  return `${siteUrl}${localePath(locale, `/confirm-email?token=${encodeURIComponent(token)}`)}`;
}

/**
 * The two emails that carry an account's one link (a password reset, an address confirmation), in the
 * account's language: the same greeting, body, button, bare link and 'ignore this' in each.
 */
async function enqueueAccountLinkMail(
  db: DB,
  mail: { to: string; name: string; siteName: string; locale: Locale; url: string; kind: "reset" | "confirmEmail" },
): Promise<void> {
  const { to, url, kind } = mail;
  const values = { name: mail.name, siteName: mail.siteName, url };
  const t = translatorFor(mail.locale);
  await enqueueMail(db, {
    to,
    kind: kind === "reset" ? "password-reset" : "confirm-email",
    subject: t(`accounts.${kind}.mail.subject`, values),
    text: t(`accounts.${kind}.mail.text`, values),
    html: [
      `<p>${escapeHtml(t(`accounts.${kind}.mail.greeting`, values))}</p>`,
      `<p>${escapeHtml(t(`accounts.${kind}.mail.body`, values))}</p>`,
      `<p><a href="${escapeHtml(url)}">${escapeHtml(t(`accounts.${kind}.mail.button`))}</a></p>`,
      `<p>${escapeHtml(url)}</p>`,
      `<p>${escapeHtml(t(`accounts.${kind}.mail.ignore`, values))}</p>`,
    ].join("\n"),
  });
}

export type AuthOptions = { db: DB; siteUrl: string; siteName: string; secret: string; logger?: Logger };

/**
 * better-auth over our own Kysely instance and tables (migration 001). The
 * adapter is told "sqlite" on both databases: that makes it write ISO-8601
 * text timestamps and 0/1 integers, which is the portable schema we keep.
 * Its HTTP handler is not mounted: our route actions call auth.api.*.
 */
export function createAuth({ db, siteUrl, siteName, secret, logger }: AuthOptions) {
  return betterAuth({
    // Into our own log (with its level), not straight to the console.
    logger: logger
      ? { log: (level, message, ...args) => logger[level]({ args }, `better-auth: ${message}`) }
      : undefined,
    appName: siteName,
    baseURL: siteUrl,
    secret,
    trustedOrigins: [siteUrl],
    database: { db, type: "sqlite" },
    user: {
      modelName: "users",
      additionalFields: {
        phone: { type: "string", required: false, defaultValue: "", input: true },
        role: { type: "string", required: false, defaultValue: "owner", input: false },
        status: { type: "string", required: false, defaultValue: "active", input: false },
        // The language of the page the account was made on; Settings changes it (ADR 069).
        locale: { type: "string", required: false, defaultValue: "en", input: true },
      },
    },
    session: {
      modelName: "sessions",
      expiresIn: SESSION_DAYS * 24 * 60 * 60,
      updateAge: SESSION_UPDATE_AGE_SECONDS,
    },
    account: { modelName: "accounts" },
    // A suspended account gets no session, whichever way it signs in (ADR 008).
    databaseHooks: {
      session: {
        create: {
          before: async (session) => {
            const user = await db
              .selectFrom("users")
              .select("status")
              .where("id", "=", session.userId)
              .executeTakeFirst();
            if (user?.status === "suspended") {
              throw APIError.from("FORBIDDEN", { code: "USER_SUSPENDED", message: "This account has been suspended." });
            }
          },
        },
        // A refresh never carries a session past 30 days from sign-in (ADR 019).
        update: {
          before: async (update, endpoint) => {
            const createdAt = endpoint?.context.session?.session.createdAt;
            const expiresAt = update.expiresAt;
            if (!createdAt || !(expiresAt instanceof Date)) return;
            const cap = sessionHardExpiry(createdAt);
            if (expiresAt > cap) return { data: { ...update, expiresAt: cap } };
          },
        },
      },
    },
    // Reset tokens are stored as SHA-256 hashes: a leaked row cannot reset a password (ADR 018).
    verification: { modelName: "verifications", storeIdentifier: "hashed" },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      // Argon2id at OWASP's parameters (ADR 006); the demo accounts use the same.
      // Through one gate, so a burst of logins queues instead of starving the server.
      password: {
        hash: (password) => hashPassword(password),
        verify: ({ hash: stored, password }) => verifyPassword(stored, password),
      },
      sendResetPassword: async ({ user, token }) => {
        // In the account's preferred language, with a link to the reset page in it (ADR 069).
        const locale = localeOrDefault((user as typeof user & { locale?: unknown }).locale);
        const url = `${siteUrl}${localePath(locale, `/reset-password?token=${encodeURIComponent(token)}`)}`;
        await enqueueAccountLinkMail(db, { to: user.email, name: user.name, siteName, locale, url, kind: "reset" });
      },
    },
    // Addresses are confirmed by an emailed link (ADR 066): until then an account is a stranger
    // to its own address (no alert starts at once, no manage link, no new listing).
    emailVerification: {
      sendOnSignUp: true,
      expiresIn: CONFIRM_EMAIL_TOKEN_SECONDS,
      // Whoever opens the link is not signed in by it: it proves the inbox, not the password.
      autoSignInAfterVerification: false,
      sendVerificationEmail: async ({ user, token }) => {
        const locale = localeOrDefault((user as typeof user & { locale?: unknown }).locale);
        const url = confirmEmailUrl(siteUrl, locale, token);
        await enqueueAccountLinkMail(db, {
          to: user.email,
          name: user.name,
          siteName,
          locale,
          url,
          kind: "confirmEmail",
        });
      },
      // Our own dated record of the confirmation (ADR 066), beside better-auth's 0/1 flag.
      afterEmailVerification: async (user) => {
        await db
          .updateTable("users")
          .set({ emailConfirmedAt: currentTime().toISOString() })
          .where("id", "=", user.id)
          .where("emailConfirmedAt", "is", null)
          .execute();
      },
    },
    advanced: {
      cookiePrefix: AUTH_COOKIE_PREFIX,
      // Session cookies: never readable by scripts, not sent on cross-site
      // subrequests, Secure (and __Secure- prefixed) whenever the site is https.
      useSecureCookies: siteUrl.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      database: { generateId: "uuid" },
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const instances = new WeakMap<DB, Auth>();

/** One better-auth instance per database (in practice: one per process). */
export function getAuth(info: Pick<RequestInfo, "db" | "env" | "secrets" | "logger">): Auth {
  let auth = instances.get(info.db);
  if (!auth) {
    auth = createAuth({
      db: info.db,
      siteUrl: info.env.siteUrl,
      siteName: info.env.SITE_NAME,
      secret: info.secrets.sessionSecret,
      logger: info.logger,
    });
    instances.set(info.db, auth);
  }
  return auth;
}

export type SessionUser = {
  id: string;
  name: string;
  email: string;
  /** The address was confirmed by its emailed link (ADR 066); until then it is treated as a stranger's. */
  emailConfirmed: boolean;
  phone: string;
  role: string;
  locale: Locale;
};

type ContextLike = Readonly<RouterContextProvider>;

/**
 * This request's answer, kept in the router context: the root loader, the
 * layout guards and the routes ask once between them. Keyed by the Request,
 * because the loaders that run after an action get a new one (and must see
 * what the action changed: a new name, an ended session).
 */
const sessionUsers = createContext<{ request: Request; user: Promise<SessionUser | null> } | null>(null);

/** The signed-in, active user of this request, or null. */
export function getSessionUser(request: Request, context: ContextLike): Promise<SessionUser | null> {
  const known = context.get(sessionUsers);
  if (known?.request === request) return known.user;
  const user = readSessionUser(request, context);
  context.set(sessionUsers, { request, user });
  return user;
}

async function readSessionUser(request: Request, context: ContextLike): Promise<SessionUser | null> {
  // View-counting cookies share the prefix: only a session cookie is worth a database read.
  if (!hasSessionCookie(request.headers.get("cookie"))) return null;
  const info = context.get(requestContext);
  const auth = getAuth(info);
  let session: Awaited<ReturnType<typeof auth.api.getSession>>;
  try {
    // A session used a day after its last refresh is refreshed: better-auth then
    // answers with a new cookie, which goes out on this response (ADR 019).
    const answer = await auth.api.getSession({ headers: request.headers, returnHeaders: true });
    forwardCookies(info, answer.headers);
    session = answer.response;
  } catch (error) {
    // Every page asks who is signed in: a failure here shows the page signed out rather than an error.
    info.log.error({ err: error }, "could not read the session");
    return null;
  }
  if (!session) return null;
  // 30 days from sign-in at most, however often it was used (ADR 019).
  if (sessionHardExpiry(session.session.createdAt) <= currentTime()) {
    // Its row goes; the next request's getSession then clears the cookie.
    await info.db
      .deleteFrom("sessions")
      .where("id", "=", session.session.id)
      .execute()
      .catch((error: unknown) => {
        info.log.error({ err: error }, "could not end an expired session");
      });
    return null;
  }
  const user = session.user as typeof session.user & {
    phone?: string;
    status?: string;
    role?: string;
    locale?: string;
  };
  if (user.status && user.status !== "active") return null;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailConfirmed: user.emailVerified === true,
    phone: user.phone ?? "",
    role: user.role ?? "owner",
    locale: localeOrDefault(user.locale),
  };
}

/**
 * Sends better-auth's Set-Cookie headers (a refreshed or cleared session
 * cookie) on this request's response, which is then private (ADR 068). Only
 * requests with a session cookie get here. The page cache never keeps a page
 * rendered for a cookie this site signed; one it did not sign (made up, or
 * from another secret) reads no session, so its page is everyone's, and the
 * cookie goes on this answer only (server/pages.ts).
 */
function forwardCookies(info: RequestInfo, headers: Headers): void {
  for (const cookie of headers.getSetCookie()) info.setCookie?.(cookie);
}

/** Copies better-auth's Set-Cookie headers onto our response. */
export function cookieHeaders(source: Headers): Headers {
  const headers = new Headers();
  for (const cookie of source.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}
