import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AdInsightsList } from "~/components/dashboard/ad-insights";
import { inLocale } from "~/i18n/request-locale.server";
import si from "~/i18n/si/insights-server.json";
import ta from "~/i18n/ta/insights-server.json";
import { colomboDay, type DailyCounts, lastDays } from "~/models/listing-daily-counts.server";
import { adInsightsView, adInsightsWords, CHART_HEIGHT, CHART_WIDTH } from "./ad-insights.server";

const NOW = new Date("2026-11-29T20:00:00.000Z"); // 01:30 on 30 Nov in Colombo

/** 30 empty days ending today (Colombo), with some figures set. */
function month(set: Record<number, Partial<DailyCounts>> = {}): DailyCounts[] {
  return lastDays(30, NOW).map((day, i) => ({ day, views: 0, saves: 0, calls: 0, whatsapp: 0, viber: 0, ...set[i] }));
}

const listing = { id: 1042, title: "Quiet room near Moratuwa" };
const series = (view: ReturnType<typeof adInsightsView>, name: string) => view.series.find((s) => s.name === name)!;

describe("the days of the chart", () => {
  it("follow Sri Lanka's calendar, not UTC's", () => {
    expect(colomboDay(NOW)).toBe("2026-11-30");
    expect(colomboDay(new Date("2026-11-29T18:29:59.999Z"))).toBe("2026-11-29");
    const days = lastDays(30, NOW);
    expect(days).toHaveLength(30);
    expect(days[0]).toBe("2026-11-01");
    expect(days[29]).toBe("2026-11-30");
  });
});

describe("an ad's chart", () => {
  it("scales each figure to its own busiest day and draws nothing for empty days", () => {
    const view = adInsightsView(listing, month({ 0: { views: 40 }, 10: { views: 10 }, 29: { views: 20, calls: 1 } }));
    const views = series(view, "views");
    expect(views.total).toBe(70);
    expect(views.mostLine).toBe("Most in one day: 40");
    expect(views.bars).toHaveLength(3);
    const [first, middle, last] = views.bars;
    expect(first).toMatchObject({ height: CHART_HEIGHT, y: 0 });
    expect(middle.height).toBe(CHART_HEIGHT / 4);
    expect(last.height).toBe(CHART_HEIGHT / 2);
    // Each day its own slot, oldest on the left, today on the right.
    expect(first.x).toBeLessThan(middle.x);
    expect(last.x + last.width).toBeLessThanOrEqual(CHART_WIDTH);
    expect(last.x).toBeGreaterThan(CHART_WIDTH - CHART_WIDTH / 30);
    // One call on the only day with calls fills its own chart: calls are not measured against views.
    expect(series(view, "calls").bars).toEqual([expect.objectContaining({ height: CHART_HEIGHT })]);
  });

  it("adds WhatsApp and Viber into messages, and says 'None yet' for a figure with nothing", () => {
    const view = adInsightsView(listing, month({ 5: { whatsapp: 2, viber: 1 } }));
    expect(series(view, "messages")).toMatchObject({ total: 3, mostLine: "Most in one day: 3" });
    expect(series(view, "saves")).toMatchObject({ total: 0, mostLine: "None yet", bars: [] });
  });

  it("gives screen readers every figure in a table, newest day first", () => {
    const view = adInsightsView(listing, month({ 29: { views: 5, saves: 1, calls: 2, viber: 1 } }));
    expect(view.table.columns).toEqual(["Day", "Views", "Saves", "Calls", "Messages"]);
    expect(view.table.rows).toHaveLength(30);
    expect(view.table.rows[0]).toEqual({ day: "30 Nov", cells: [5, 1, 2, 1] });
    expect(view.table.rows[29]).toEqual({ day: "1 Nov", cells: [0, 0, 0, 0] });
    expect(view.period).toBe("Last 30 days: 1 Nov 2026 to 30 Nov 2026");

    const html = renderToStaticMarkup(<AdInsightsList ads={[view]} words={adInsightsWords()} />);
    // The drawing is hidden from screen readers; the table inside <details> says the same.
    expect(html).toMatch(/<svg[^>]*aria-hidden="true"/);
    expect(html).toContain("<details");
    expect(html).toContain(
      '<caption class="sr-only">Quiet room near Moratuwa: figures per day, last 30 days</caption>',
    );
    expect(html.match(/<rect /g)).toHaveLength(4);
  });

  it.each([
    ["si", si],
    ["ta", ta],
  ] as const)("speaks %s", (locale, catalogue) => {
    const view = inLocale(locale, () => adInsightsView(listing, month()));
    expect(view.series.map((s) => s.label)).toEqual([
      catalogue.series.views,
      catalogue.series.saves,
      catalogue.series.calls,
      catalogue.series.messages,
    ]);
    expect(series(view, "calls").mostLine).toBe(catalogue.none);
  });
});
