import { t } from "~/i18n";
import { formatDayDate, formatDayMonth } from "~/lib/format";
import type { DailyCounts } from "~/models/listing-daily-counts.server";
import type { AdInsightsView, AdInsightsWords, InsightSeriesName } from "~/schemas/ad-insights-view";
import "virtual:catalogue/insights-server";

/** The small charts' own units: the SVG stretches to the width of the card (360 px phones too). */
export const CHART_WIDTH = 300;
export const CHART_HEIGHT = 40;
/** Space between two days' bars. */
const BAR_GAP = 2;

const SERIES: readonly { name: InsightSeriesName; of: (day: DailyCounts) => number }[] = [
  { name: "views", of: (day) => day.views },
  { name: "saves", of: (day) => day.saves },
  { name: "calls", of: (day) => day.calls },
  // WhatsApp and Viber together: both are a message to the owner.
  { name: "messages", of: (day) => day.whatsapp + day.viber },
];

/** A day (YYYY-MM-DD, Colombo) in the reader's language: midday there, so no zone moves it. */
const midday = (day: string) => `${day}T12:00:00+05:30`;
const dayLabel = (day: string) => formatDayDate(midday(day));

/** Rounded to a tenth: the SVG stays short and the bars line up. */
const tenth = (value: number) => Math.round(value * 10) / 10;

/**
 * One ad's last days as four small bar charts on the server (ADR 089): views,
 * saves, calls and messages, each on its own scale (its busiest day reaches
 * the top), so a handful of calls shows beside hundreds of views. Its figures
 * also go in a table for screen readers.
 */
export function adInsightsView(listing: { id: number; title: string }, days: readonly DailyCounts[]): AdInsightsView {
  const slot = CHART_WIDTH / Math.max(days.length, 1);
  const series = SERIES.map(({ name, of }) => {
    const values = days.map(of);
    const most = Math.max(0, ...values);
    const total = values.reduce((sum, value) => sum + value, 0);
    return {
      name,
      label: t(`insightsServer.series.${name}`),
      total,
      mostLine: total === 0 ? t("insightsServer.none") : t("insightsServer.most", { count: most }),
      bars: values.flatMap((value, i) => {
        if (value === 0) return [];
        // At least one unit high, so a day with one call among busier ones still shows.
        const height = tenth(Math.max(1, (value / most) * CHART_HEIGHT));
        return [
          { x: tenth(i * slot + BAR_GAP / 2), y: tenth(CHART_HEIGHT - height), width: tenth(slot - BAR_GAP), height },
        ];
      }),
    };
  });
  const first = days[0]?.day;
  const last = days[days.length - 1]?.day;
  return {
    listingId: listing.id,
    title: listing.title,
    period: first && last ? t("insightsServer.period", { from: dayLabel(first), to: dayLabel(last) }) : "",
    series,
    table: {
      summary: t("insightsServer.figures"),
      caption: t("insightsServer.caption", { title: listing.title }),
      // Short headings: five columns fit a 360 px phone.
      columns: [t("insightsServer.columns.day"), ...SERIES.map(({ name }) => t(`insightsServer.columns.${name}`))],
      // Newest first: the day an owner asks about most is today.
      // '30 Nov' without the year (the period line above has it): five columns fit a 360 px phone.
      rows: days
        .map((day) => ({ day: formatDayMonth(midday(day.day)), cells: SERIES.map(({ of }) => of(day)) }))
        .reverse(),
    },
  };
}

export function adInsightsWords(): AdInsightsWords {
  return { heading: t("insightsServer.heading"), note: t("insightsServer.note") };
}
