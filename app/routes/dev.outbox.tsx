import { data } from "react-router";
import { type MessageKey, useTranslation } from "~/i18n";
import { routeMeta } from "~/lib/route-meta";
import { linkifySiteUrls } from "~/lib/site-links";
import { listRecentMail } from "~/models/outbox.server";
import { isLoopbackRequest } from "~/security/loopback.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/dev.outbox";
import "virtual:catalogue/mail";

const SHOWN = 50;

const STATUS_KEYS: Record<string, MessageKey> = {
  pending: "mail.devOutbox.statusName.pending",
  sending: "mail.devOutbox.statusName.sending",
  sent: "mail.devOutbox.statusName.sent",
  logged: "mail.devOutbox.statusName.logged",
  failed: "mail.devOutbox.statusName.failed",
};
/** A text the SMS outbox kept instead of sending (ADR 075), shown beside the emails. */
const SMS_KEPT: MessageKey = "mail.devOutbox.statusName.sms";

export const meta: Route.MetaFunction = routeMeta((site) => [
  { title: site.t("mail.devOutbox.meta.title", site) },
  { name: "robots", content: "noindex" },
]);

// Lets a developer open links from emails (password resets) and read phone
// codes (ADR 075) without a mail server or an SMS gateway. Emails carry secrets, so the page exists only under `npm run dev`
// and only for a browser on the same machine: anything else gets the 404 of
// a page that does not exist (ADR 018).
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env, clientIp } = context.get(requestContext);
  if (env.NODE_ENV !== "development" || !isLoopbackRequest(request.headers, clientIp))
    throw data(null, { status: 404 });
  const messages = await listRecentMail(db, SHOWN);
  return {
    siteUrl: env.siteUrl,
    messages: messages.map((m) => ({
      id: m.id,
      to: m.to,
      replyTo: m.replyTo,
      subject: m.subject,
      text: m.text,
      status: m.kind === "sms" ? "sms" : m.status,
      attempts: m.attempts,
      lastError: m.lastError,
      createdAt: m.createdAt,
    })),
  };
}

export default function DevOutbox({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { messages, siteUrl } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-bold">{t("mail.devOutbox.heading")}</h1>
      <p className="mt-2 text-slate-700">{t("mail.devOutbox.intro", { count: SHOWN })}</p>
      {messages.length === 0 ? (
        <p className="mt-6 text-slate-700">{t("mail.devOutbox.empty")}</p>
      ) : (
        <ol className="mt-6 space-y-6">
          {messages.map((m) => (
            <li key={m.id}>
              <article aria-labelledby={`mail-${m.id}`} className="rounded-lg border border-slate-200 bg-white p-4">
                <h2 id={`mail-${m.id}`} className="text-lg font-semibold break-words">
                  {m.subject}
                </h2>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="font-medium text-slate-600">{t("mail.devOutbox.to")}</dt>
                  <dd className="break-all">{m.to}</dd>
                  {m.replyTo ? (
                    <>
                      <dt className="font-medium text-slate-600">{t("mail.devOutbox.replyTo")}</dt>
                      <dd className="break-all">{m.replyTo}</dd>
                    </>
                  ) : null}
                  <dt className="font-medium text-slate-600">{t("mail.devOutbox.created")}</dt>
                  <dd>
                    <time dateTime={m.createdAt}>{m.createdAt.replace("T", " ").slice(0, 19)} UTC</time>
                  </dd>
                  <dt className="font-medium text-slate-600">{t("mail.devOutbox.status")}</dt>
                  <dd>
                    {m.status === "sms" ? t(SMS_KEPT) : STATUS_KEYS[m.status] ? t(STATUS_KEYS[m.status]) : m.status}
                    {m.attempts > 0 && m.status !== "sent" && m.status !== "logged"
                      ? ` · ${t("mail.devOutbox.attempts", { count: m.attempts })}`
                      : null}
                  </dd>
                </dl>
                {m.lastError ? (
                  <p className="mt-2 text-sm text-red-700">{t("mail.devOutbox.lastError", { error: m.lastError })}</p>
                ) : null}
                <pre className="mt-3 overflow-x-auto font-sans text-sm whitespace-pre-wrap break-words text-slate-800">
                  {linkifySiteUrls(m.text, siteUrl).map((part, i) =>
                    part.href ? (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text never move
                      <a key={i} href={part.href} className="text-brand-700 underline">
                        {part.text}
                      </a>
                    ) : (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text never move
                      <span key={i}>{part.text}</span>
                    ),
                  )}
                </pre>
              </article>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
