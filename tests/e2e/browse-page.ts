import { expect, type Page } from "@playwright/test";

/** What the Browse screen's tests read off the page (tests/e2e/browse*.spec.ts). */

export const UOM = "University of Moratuwa";

export function cards(page: Page) {
  return page.getByRole("main").getByRole("article");
}

function countHeading(page: Page) {
  return page.getByRole("heading", { name: /^\d+ boarding places? found$/ });
}

export async function foundCount(page: Page): Promise<number> {
  const text = (await countHeading(page).textContent()) ?? "";
  return Number(/^(\d+)/.exec(text)?.[1] ?? Number.NaN);
}

export function chip(page: Page, label: string) {
  return page.getByRole("link", { name: `Remove filter: ${label}` });
}

export function cardPrices(page: Page): Promise<number[]> {
  return cards(page)
    .getByText(/^LKR [\d,]+\/month$/)
    .allTextContents()
    .then((texts) => texts.map((t) => Number(t.replace(/[^\d]/g, ""))));
}

/** Each card's move-in total (0 for 'none'); a card without the line fails the filter's promise. */
async function cardMoveIns(page: Page): Promise<number[]> {
  const totals: number[] = [];
  for (const card of await cards(page).all()) {
    const line = (await card.getByText(/^Move-in cost: /).textContent()) ?? "";
    totals.push(line.includes("none") ? 0 : Number(/LKR ([\d,]+)/.exec(line)?.[1].replace(/,/g, "")));
  }
  return totals;
}

/** Checks the 'Max move-in cost' filter's results: some cards, each with a stated total within it. */
export async function expectMoveInsWithin(page: Page, most: number) {
  await expect(chip(page, `Move-in up to LKR ${most.toLocaleString("en-US")}`)).toBeVisible();
  await expect(cards(page).first()).toBeVisible();
  const totals = await cardMoveIns(page);
  expect(totals.length).toBeGreaterThan(0);
  for (const total of totals) expect(total).toBeLessThanOrEqual(most);
}

/** Each card's distance to the University of Moratuwa in km, from its line ('1.4 km from…', 'About 850 m from…'). */
export async function cardDistances(page: Page): Promise<number[]> {
  // The address changes before the new results arrive: wait for a card with a distance.
  await expect(cards(page).first()).toContainText(/ k?m from University of Moratuwa/);
  const lines = await cards(page)
    .getByText(/^(About )?[\d.,]+ k?m from University of Moratuwa, Moratuwa/)
    .allTextContents();
  expect(lines).toHaveLength(await cards(page).count());
  return lines.map((line) => {
    const [, amount, unit] = /([\d.,]+) (km|m) from/.exec(line)!;
    const value = Number(amount.replace(/,/g, ""));
    return unit === "m" ? value / 1000 : value;
  });
}

/**
 * Cards nearest first, each within `km` (as shown, to 0.1 km). Places students say may be let
 * (another test may have marked some) come after the rest, nearest first among themselves,
 * and their cards say why (ADR 059).
 */
export async function expectNearestWithin(page: Page, km: number) {
  // The address changes as the new results render (the old order may still be on screen for a
  // moment): the whole check is retried until it holds, and fails if it never does.
  await expect(async () => {
    await expect(cards(page).first()).toBeVisible();
    const distances = await cardDistances(page);
    expect(distances.length).toBeGreaterThan(0);
    const doubted = await cards(page).evaluateAll((all) =>
      all.map((card) => card.querySelector('[data-testid="card-unconfirmed"]') !== null),
    );
    expect(doubted).toHaveLength(distances.length);
    const firstDoubted = doubted.indexOf(true);
    const confirmedCount = firstDoubted === -1 ? doubted.length : firstDoubted;
    expect(doubted.slice(confirmedCount)).not.toContain(false);
    const ascending = (list: number[]) => expect(list).toEqual([...list].sort((a, b) => a - b));
    ascending(distances.slice(0, confirmedCount));
    ascending(distances.slice(confirmedCount));
    for (const distance of distances) expect(distance).toBeLessThanOrEqual(km + 0.05);
  }).toPass({ timeout: 10_000 });
}

/** Waits until React has hydrated the filter form, so changes go through JavaScript. */
export async function gotoHydrated(page: Page, url: string) {
  await page.goto(url);
  await page.waitForFunction(() => {
    const input = document.querySelector("#browse-search");
    return Boolean(input && Object.keys(input).some((key) => key.startsWith("__reactProps")));
  });
}
