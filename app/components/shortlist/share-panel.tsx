import { useState } from "react";
import { Form } from "react-router";
import { useEnhanced } from "~/components/forms/use-enhanced";
import { buttonClasses, inputClasses } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import "virtual:catalogue/shortlist";

/**
 * 'Share this shortlist' (ADR 055): a form post that gives the list
 * a link (/s/{code}), shown to copy or send on WhatsApp; 'Stop sharing'
 * retires it. Works without JavaScript; 'Copy link' appears once hydrated.
 */
export function SharePanel({ url, siteName }: { url: string | null; siteName: string }) {
  const { t } = useTranslation();
  const enhanced = useEnhanced();
  const [copied, setCopied] = useState<string | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url ?? "");
      setCopied(t("shortlist.share.copied"));
    } catch {
      // No clipboard (an http address, a refusal): the link is in the box above, selected.
      (document.getElementById("share-link") as HTMLInputElement | null)?.select();
      setCopied(t("shortlist.share.copyFailed"));
    }
  }

  return (
    <section aria-labelledby="share-heading" className="mt-8 rounded-xl border border-slate-200 p-4 sm:p-6">
      <h2 id="share-heading" className="text-lg font-semibold">
        {t("shortlist.share.heading")}
      </h2>
      <Form method="post" action="/shortlist" preventScrollReset className="mt-2">
        {enhanced ? <input type="hidden" name="enhanced" value="1" /> : null}
        {url ? (
          <>
            <p className="text-slate-700">{t("shortlist.share.live")}</p>
            <label htmlFor="share-link" className="mt-3 block text-sm font-medium">
              {t("shortlist.share.link")}
            </label>
            <input
              id="share-link"
              type="text"
              readOnly
              value={url}
              onFocus={(event) => event.currentTarget.select()}
              className={`${inputClasses} mt-1`}
            />
            <div className="mt-3 flex flex-wrap items-center gap-3">
              <a
                href={`https://wa.me/?text=${encodeURIComponent(t("shortlist.share.whatsappText", { siteName, url }))}`}
                className={buttonClasses("primary")}
                rel="noopener noreferrer"
                target="_blank"
              >
                {t("shortlist.share.whatsapp")}
              </a>
              {enhanced ? (
                <button type="button" onClick={copy} className={buttonClasses("secondary")}>
                  {t("shortlist.share.copy")}
                </button>
              ) : null}
              <button type="submit" name="intent" value="unshare" className={buttonClasses("ghost")}>
                {t("shortlist.share.stop")}
              </button>
            </div>
            <p role="status" className="mt-2 text-sm text-slate-700">
              {copied}
            </p>
          </>
        ) : (
          <>
            <p className="text-slate-700">{t("shortlist.share.intro")}</p>
            <button type="submit" name="intent" value="share" className={`${buttonClasses("primary")} mt-3`}>
              {t("shortlist.share.button")}
            </button>
          </>
        )}
      </Form>
    </section>
  );
}
