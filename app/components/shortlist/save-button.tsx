import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { HeartIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import { savedIdsIn } from "~/lib/saved-cookie";
import type { ShortlistActionResult } from "~/schemas/shortlist-view";

/**
 * 'Save' on a card or a listing page (ADR 054). A form post to /shortlist,
 * so it works without JavaScript (redirected to the shortlist page, which says what happened
 * and links back to the page the browser names as its Referer); the form
 * names nothing that differs between the cached page and the address it is
 * shown at, so hydration always matches.
 * with JavaScript it posts in place and turns into 'Saved', which removes it
 * again. Whether a place is saved comes from the `bodima_saved` cookie, read
 * after hydration.
 */
export function SaveButton({ id, title, className = "" }: { id: string; title: string; className?: string }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<ShortlistActionResult>();
  // Public pages come from the page cache, the same for everyone: rendered as not saved, then
  // marked from the cookie once hydrated (ADR 054). Null until then, which also says the post
  // goes through the fetcher (enhanced=1). Not useSyncExternalStore: with it, a tap on a link
  // while the page hydrated on a slow phone was lost.
  const [cookies, setCookies] = useState<string | null>(null);
  useEffect(() => setCookies(document.cookie), []);
  const intent = fetcher.formData?.get("intent");
  const answer = fetcher.data?.status === "refused" ? undefined : fetcher.data;
  // Shown at once while the post is under way; then the list the answer gives; else the cookie.
  const saved = intent ? intent === "save" : (answer?.saved ?? savedIdsIn(cookies ?? "")).includes(Number(id));
  const refusal = fetcher.state === "idle" && fetcher.data?.status === "refused" ? fetcher.data.message : null;

  return (
    <fetcher.Form method="post" action="/shortlist" className={`relative z-10 ${className}`}>
      <input type="hidden" name="listing" value={id} />
      {cookies === null ? null : <input type="hidden" name="enhanced" value="1" />}
      <button
        type="submit"
        name="intent"
        value={saved ? "remove" : "save"}
        className="inline-flex min-h-11 items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50"
      >
        <HeartIcon className={`h-5 w-5 ${saved ? "fill-current text-rose-600" : ""}`} />
        {saved ? t("common.save.saved") : t("common.save.save")}
        <span className="sr-only">: {title}</span>
      </button>
      {refusal ? (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {refusal}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
