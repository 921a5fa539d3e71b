import type { ReactNode } from "react";
import { type MessageKey, type Translator, useTranslation } from "~/i18n";
import { formatLkr, formatShortDate } from "~/lib/format";
import { markPhrases } from "~/lib/mark-phrases";
import { wordDiff } from "~/lib/word-diff";
import type { HeldItem, HeldListingView, HeldPhoto, HeldWaitStats } from "~/schemas/held-view";
import type { HeldIntent } from "~/schemas/moderation";
import type { HoldSignal } from "~/schemas/review-hold";
import { scamRuleKey } from "~/schemas/review-reasons";
import { ModerationForm } from "./moderation-form";
import "virtual:catalogue/admin";
import "virtual:catalogue/review";

/**
 * The 'Held for review' queue (ADR 078): every signal of a held listing on one
 * screen, beside what it compares with, and the approve / reject forms.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A wait in the unit a person reads it in: minutes under an hour, hours under two days, else days. */
export function formatWait(t: Translator, ms: number): string {
  if (ms < HOUR) return t("admin.held.duration.minutes", { count: Math.round(ms / MINUTE) });
  if (ms < 48 * HOUR) return t("admin.held.duration.hours", { count: Math.round(ms / HOUR) });
  return t("admin.held.duration.days", { count: Math.round(ms / (24 * HOUR)) });
}

export function WaitFigures({ wait }: { wait: HeldWaitStats }) {
  const { t } = useTranslation();
  if (wait.medianMs === null || wait.p90Ms === null) return <p className="text-slate-700">{t("admin.held.noWait")}</p>;
  return (
    <p data-testid="held-wait" className="text-slate-700">
      {t("admin.held.wait", {
        median: formatWait(t, wait.medianMs),
        p90: formatWait(t, wait.p90Ms),
        count: wait.decisions,
      })}
    </p>
  );
}

function Photo({ photo, listingId }: { photo: HeldPhoto; listingId: number }) {
  const { t } = useTranslation();
  return (
    <img
      src={photo.url}
      width={photo.width}
      height={photo.height}
      alt={t("admin.held.photoAlt", { position: photo.position + 1, id: listingId })}
      className="h-auto w-full rounded-lg border border-slate-200 bg-slate-100"
      loading="lazy"
    />
  );
}

/** This listing's photo beside the other listing's: two columns, even at 360 px. */
function SideBySide(props: {
  mine: ReactNode;
  theirs: ReactNode;
  other: HeldListingView | undefined;
  otherId: number;
}) {
  const { t } = useTranslation();
  const { other, otherId } = props;
  return (
    <div className="mt-2 grid grid-cols-2 gap-3">
      <figure className="min-w-0">
        {props.mine}
        <figcaption className="mt-1 text-sm font-semibold">{t("admin.held.thisListing")}</figcaption>
      </figure>
      <figure className="min-w-0">
        {props.theirs}
        <figcaption className="mt-1 text-sm font-semibold [overflow-wrap:anywhere]">
          {other
            ? t("admin.held.otherListing", { id: other.id, title: other.title })
            : t("admin.held.otherGone", { id: otherId })}
        </figcaption>
      </figure>
    </div>
  );
}

function Diff({ from, to }: { from: string; to: string }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="mt-2 text-sm text-slate-700">{t("admin.held.diffLegend")}</p>
      <p
        data-testid="description-diff"
        className="mt-2 whitespace-pre-line rounded-lg bg-slate-50 p-3 [overflow-wrap:anywhere]"
      >
        {wordDiff(from, to).map((part, index) => {
          const key = `${index}-${part.kind}`;
          if (part.kind === "added")
            return (
              <ins key={key} title={t("admin.held.added")} className="bg-green-100 text-green-950 underline">
                {part.text}{" "}
              </ins>
            );
          if (part.kind === "removed")
            return (
              <del key={key} title={t("admin.held.removed")} className="bg-red-100 text-red-950">
                {part.text}{" "}
              </del>
            );
          return <span key={key}>{part.text} </span>;
        })}
      </p>
    </>
  );
}

function Signal({ signal, item }: { signal: HoldSignal; item: HeldItem }) {
  const { t } = useTranslation();
  const { listing, others } = item;
  switch (signal.kind) {
    case "photo-match": {
      const mine = listing.photos.find((p) => p.id === signal.photoId);
      const other = others[signal.otherListingId];
      const theirs = other?.photos.find((p) => p.id === signal.otherPhotoId);
      return (
        <li data-signal="photo-match">
          <p>
            {t("review.moderator.photoMatch", {
              position: (mine?.position ?? 0) + 1,
              otherId: signal.otherListingId,
              distance: signal.distance,
            })}
          </p>
          <SideBySide
            otherId={signal.otherListingId}
            other={other}
            mine={mine ? <Photo photo={mine} listingId={listing.id} /> : null}
            theirs={other && theirs ? <Photo photo={theirs} listingId={other.id} /> : null}
          />
        </li>
      );
    }
    case "similar-description": {
      const other = others[signal.otherListingId];
      return (
        <li data-signal="similar-description">
          <p>
            {t("review.moderator.similarDescription", {
              percent: Math.round(signal.similarity * 100),
              otherId: signal.otherListingId,
            })}
          </p>
          {other ? (
            <Diff from={other.description} to={listing.description} />
          ) : (
            <p className="text-sm">{t("admin.held.otherGone", { id: signal.otherListingId })}</p>
          )}
        </li>
      );
    }
    case "price":
      return (
        <li data-signal="price">
          {t("review.moderator.price", {
            rent: formatLkr(signal.rent),
            low: formatLkr(signal.typicalLow),
            high: formatLkr(signal.typicalHigh),
          })}
        </li>
      );
    case "scam":
      return (
        <li data-signal="scam">
          <p className="font-semibold">{t(scamRuleKey(signal.id))}</p>
          {signal.evidence.length > 0 ? (
            <p className="text-sm">
              {t("review.moderator.phrases", { weight: signal.weight })}{" "}
              {signal.evidence.map((phrase) => (
                <mark key={phrase} className="mr-2 rounded bg-amber-100 px-1 text-amber-950">
                  {phrase}
                </mark>
              ))}
            </p>
          ) : null}
        </li>
      );
  }
}

/** The description with the scam rules' phrases marked where they stand. */
function Description({ item }: { item: HeldItem }) {
  const { t } = useTranslation();
  const phrases = item.signals.flatMap((s) => (s.kind === "scam" ? s.evidence : []));
  return (
    <div>
      <h4 className="font-semibold">{t("admin.held.description")}</h4>
      <p className="mt-1 whitespace-pre-line [overflow-wrap:anywhere]">
        {markPhrases(item.listing.description, phrases).map((part, index) =>
          part.marked ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order, never reordered
            <mark key={index} className="rounded bg-amber-100 px-0.5 text-amber-950">
              {part.text}
            </mark>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            <span key={index}>{part.text}</span>
          ),
        )}
      </p>
    </div>
  );
}

export type HeldFailure = { intent: HeldIntent | null; listingId: number | null; error: MessageKey; reason: string };

export function HeldListing({ item, failure }: { item: HeldItem; failure: HeldFailure | undefined }) {
  const { t } = useTranslation();
  const { listing } = item;
  const mine = failure?.listingId === listing.id ? failure : undefined;
  const formProps = (intent: HeldIntent) => (mine?.intent === intent ? { error: mine.error, reason: mine.reason } : {});
  return (
    <article
      data-held-listing={listing.id}
      aria-labelledby={`held-${listing.id}`}
      className="space-y-4 rounded-xl border border-slate-200 p-4 sm:p-5"
    >
      <header>
        <h3 id={`held-${listing.id}`} className="text-xl font-semibold [overflow-wrap:anywhere]">
          #{listing.id} {listing.title}
        </h3>
        <p className="text-sm text-slate-700">
          {t("admin.held.heldAt", { date: formatShortDate(item.heldAt) })} ·{" "}
          <span className="[overflow-wrap:anywhere]">
            {t("admin.held.postedBy", {
              name: listing.ownerName,
              email: listing.ownerEmail,
              date: formatShortDate(listing.createdAt),
            })}
          </span>
        </p>
        <p className="text-sm text-slate-700">{t("admin.held.rent", { rent: formatLkr(listing.price) })}</p>
      </header>
      <section aria-labelledby={`signals-${listing.id}`}>
        <h4 id={`signals-${listing.id}`} className="font-semibold">
          {t("admin.held.signals")}
        </h4>
        <ul className="mt-2 space-y-4">
          {item.signals.map((signal, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a hold's signals, stored in this order
            <Signal key={index} signal={signal} item={item} />
          ))}
        </ul>
      </section>
      <Description item={item} />
      {mine &&
      mine.error !== "admin.actions.errors.reasonRequired" &&
      mine.error !== "admin.actions.errors.reasonTooLong" ? (
        <p role="alert" className="font-semibold text-red-800">
          {t(mine.error)}
        </p>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        <ModerationForm
          intent="approve"
          listingId={listing.id}
          label={t("admin.held.approve")}
          {...formProps("approve")}
        />
        <ModerationForm
          intent="reject"
          listingId={listing.id}
          label={t("admin.held.reject")}
          variant="danger"
          {...formProps("reject")}
        />
      </div>
    </article>
  );
}
