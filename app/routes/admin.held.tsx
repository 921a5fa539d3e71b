import { data, redirect, useSearchParams } from "react-router";
import { moderatorsOnly } from "~/auth/guard.server";
import { type HeldFailure, HeldListing, WaitFigures } from "~/components/admin/held-queue";
import { Banner } from "~/components/ui/banner";
import { useTranslation } from "~/i18n";
import { routeMeta } from "~/lib/route-meta";
import { approveHeldListing, rejectHeldListing } from "~/mail/review-mails.server";
import { listHeldQueue } from "~/models/held-queue.server";
import { HELD_INTENTS, MODERATION_FAILURES, parseHeldDecisionForm } from "~/schemas/moderation";
import { readForm } from "~/security/read-form.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/admin.held";
import "virtual:catalogue/admin";

export const meta: Route.MetaFunction = routeMeta((site) => [
  { title: site.t("admin.held.metaTitle", site) },
  { name: "robots", content: "noindex" },
]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(requestContext);
  await moderatorsOnly.user({ request, context });
  return listHeldQueue(db);
}

/** Approve or reject one held listing (plain POST forms, ADR 078); the owner is emailed the decision. */
export async function action({ request, context }: Route.ActionArgs) {
  const { db, env } = context.get(requestContext);
  const write = await moderatorsOnly.write({ request, context });
  const parsed = parseHeldDecisionForm(await readForm(request));
  const { intent, listingId } = parsed;
  if (!write.ok) {
    const failure: HeldFailure = { intent, listingId, error: "admin.actions.errors.forbidden", reason: "" };
    return data(failure, { status: 403 });
  }
  if (!parsed.ok || listingId === null) {
    const error = parsed.ok ? "admin.actions.errors.notFound" : parsed.error;
    return data({ intent, listingId, error, reason: parsed.reason ?? "" } satisfies HeldFailure, { status: 422 });
  }
  const site = { supportEmail: env.SUPPORT_EMAIL, siteName: env.SITE_NAME, siteUrl: env.siteUrl };
  const actor = { id: write.user.id, email: write.user.email };
  const result =
    parsed.intent === "approve"
      ? await approveHeldListing(db, site, actor, listingId, parsed.reason)
      : await rejectHeldListing(db, site, actor, listingId, parsed.reason ?? "");
  if (result.ok) return redirect(`/admin/held?done=${parsed.intent}`);
  const failure = MODERATION_FAILURES[result.code];
  return data({ intent, listingId, error: failure.key, reason: parsed.reason ?? "" } satisfies HeldFailure, {
    status: failure.status,
  });
}

export default function AdminHeld({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { items, openCount, wait } = loaderData;
  const [searchParams] = useSearchParams();
  const done = HELD_INTENTS.find((i) => i === searchParams.get("done"));
  const failure = actionData as HeldFailure | undefined;
  const shownFailure = failure && !items.some((item) => item.listing.id === failure.listingId);
  return (
    <section aria-labelledby="held-heading" className="space-y-4">
      <h2 id="held-heading" className="text-2xl font-semibold">
        {t("admin.held.heading")}
      </h2>
      <div aria-live="polite" className="empty:hidden">
        {done && !failure ? <Banner variant="success" title={t(`admin.held.done.${done}`)} /> : null}
        {/* A failure about a listing no longer in the queue (decided meanwhile) shows here. */}
        {failure && shownFailure ? <Banner variant="error" title={t(failure.error)} /> : null}
      </div>
      <WaitFigures wait={wait} />
      {openCount === 0 ? (
        <p>{t("admin.held.empty")}</p>
      ) : (
        <p className="text-slate-700">{t("admin.held.summary", { count: openCount })}</p>
      )}
      {items.map((item) => (
        <HeldListing key={item.listing.id} item={item} failure={failure} />
      ))}
    </section>
  );
}
