/**
 * What My Ads shows of one ad's last 30 days (types only): drawn on the
 * server by app/pages/ad-insights.server.ts, shown by
 * app/components/dashboard/ad-insights.tsx with no script of its own (ADR 089).
 */

export type InsightSeriesName = "views" | "saves" | "calls" | "messages";

/** One bar of a small chart, in the chart's own units (CHART_WIDTH x CHART_HEIGHT). */
export type InsightBar = { x: number; y: number; width: number; height: number };

export type InsightSeries = {
  name: InsightSeriesName;
  /** 'Views' */
  label: string;
  total: number;
  /** 'Most in one day: 12', or 'None yet'. */
  mostLine: string;
  /** Only the days with something: an empty day draws nothing above the baseline. */
  bars: InsightBar[];
};

export type AdInsightsView = {
  listingId: number;
  title: string;
  /** 'Last 30 days: 31 Oct 2026 to 29 Nov 2026' */
  period: string;
  series: InsightSeries[];
  /** The same figures as a table, for screen readers and for anyone who wants the numbers. */
  table: { summary: string; caption: string; columns: string[]; rows: { day: string; cells: number[] }[] };
};

/** The words around every ad's chart. */
export type AdInsightsWords = { heading: string; note: string };
