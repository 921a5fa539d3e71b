import { expect, type Page, test } from "@playwright/test";
import { insertListing } from "../../app/models/listing.server";
import { recordConfirmation } from "../../app/models/phone-confirmation.server";
import { listingInput } from "../factories";
import { newOwner, uniqueWord } from "./owners";
import { withProjectDatabase } from "./server-db";

// ADR 080: 'What Bodima checked' on the listing page, with dates and always
// what nobody checked; at most two badges on a card; 'Phone confirmed only'
// in browse, with and without JavaScript; the API's checks. The owner's rows
// are written straight into the server's database. The test server texts no
// one: its codes go to the outbox, so phone confirmation is on.

const DAY = 24 * 60 * 60 * 1000;
const NOBODY = "Nobody from Bodima has visited this place or met the owner.";

type Placed = { slug: string; title: string };

/** Two listings with the same word: one whose owner confirmed its number and whose photos were checked, one plain. */
async function twoListings(): Promise<{ checked: Placed; plain: Placed; word: string }> {
  const word = uniqueWord();
  const [owner, other] = [await newOwner(), await newOwner()];
  return withProjectDatabase(async (db) => {
    const number = (n: number) => `077${String((Date.now() + n) % 10_000_000).padStart(7, "0")}`;
    const checkedTitle = `Checked room ${word}`;
    const plainTitle = `Plain room ${word}`;
    const checked = await insertListing(db, owner, listingInput({ title: checkedTitle, contactPhone: number(1) }));
    const plain = await insertListing(db, other, listingInput({ title: plainTitle, contactPhone: number(2) }));
    const { contactPhoneE164 } = await db
      .selectFrom("listings")
      .select("contactPhoneE164")
      .where("id", "=", checked.id)
      .executeTakeFirstOrThrow();
    const at = new Date(Date.now() - 2 * DAY).toISOString();
    await recordConfirmation(db, owner.id, contactPhoneE164!, new Date(at));
    await db.updateTable("listings").set({ photosCheckedAt: at }).where("id", "=", checked.id).execute();
    return {
      checked: { slug: checked.slug, title: checkedTitle },
      plain: { slug: plain.slug, title: plainTitle },
      word,
    };
  });
}

const panel = (page: Page) => page.getByRole("region", { name: "What Bodima checked" });
const cards = (page: Page) => page.getByRole("main").getByRole("article");
const chip = (page: Page) => page.getByRole("link", { name: "Remove filter: Phone confirmed only" });

test("the listing page says what was checked, dated, and what nobody checked", async ({ page, request }) => {
  const { checked, plain } = await twoListings();
  await page.goto(`/listing/${checked.slug}`);
  const lines = panel(page).getByRole("listitem");
  await expect(lines.nth(0)).toHaveText(/^Phone number confirmed by SMS on \d{1,2} [A-Z][a-z]{2} \d{4}$/);
  await expect(panel(page)).toContainText("Email address confirmed");
  await expect(panel(page)).toContainText(
    /Photos checked on \d{1,2} [A-Z][a-z]{2} \d{4}: not found in any other owner's ad/,
  );
  await expect(panel(page)).toContainText(/On Bodima since [A-Z][a-z]+ \d{4}/);
  await expect(panel(page)).toContainText("Availability confirmed today");
  await expect(panel(page)).toContainText(NOBODY);

  // Nothing confirmed: no phone or photo line, and still what nobody checked.
  await page.goto(`/listing/${plain.slug}`);
  await expect(panel(page)).toContainText(NOBODY);
  await expect(panel(page)).not.toContainText("Phone number confirmed");
  await expect(panel(page)).not.toContainText("Photos checked");

  // The API carries each check with its date.
  const one = (await (await request.get(`/api/listings/${checked.slug}`)).json()) as {
    ad: { checks: Record<string, unknown> };
  };
  expect(one.ad.checks).toMatchObject({ emailConfirmed: true });
  expect(Date.parse(String(one.ad.checks.phoneConfirmedAt))).toBeLessThan(Date.now() - DAY);
  expect(one.ad.checks.photosCheckedAt).toBe(one.ad.checks.phoneConfirmedAt);
  const list = (await (
    await request.get(`/api/listings?search=${checked.title.split(" ")[2]}&phone=confirmed`)
  ).json()) as {
    ads: { slug: string; checks: { phoneConfirmedAt: string | null } }[];
  };
  expect(list.ads.map((ad) => ad.slug)).toEqual([checked.slug]);
});

for (const language of ["si", "ta"] as const) {
  test(`the panel and the card badges fit a 360 px phone in ${language}`, async ({ page }) => {
    const { checked, word } = await twoListings();
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`/${language}/listing/${checked.slug}`);
    const section = page.locator("section[aria-labelledby='checks-heading']");
    await expect(section.getByRole("listitem")).toHaveCount(5);
    await expect(section).toContainText(language === "si" ? "SMS මගින් තහවුරු කළා" : "SMS மூலம் உறுதிப்படுத்தப்பட்டது");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const box = (await section.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(360);

    await page.goto(`/${language}/browse?search=${word}`);
    const badges = cards(page).filter({ hasText: checked.title }).getByTestId("card-badges").getByRole("listitem");
    await expect(badges).toHaveText(
      language === "si" ? ["දුරකථනය තහවුරුයි", "ඡායාරූප පරීක්ෂා කළා"] : ["தொலைபேசி உறுதி", "புகைப்படங்கள் சரிபார்ப்பு"],
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const last = (await badges.last().boundingBox())!;
    expect(last.x + last.width).toBeLessThanOrEqual(360);
  });
}

test.describe("with JavaScript", () => {
  test("cards show at most two badges, and 'Phone confirmed only' keeps the confirmed", async ({ page }) => {
    const { checked, word } = await twoListings();
    await page.goto(`/browse?search=${word}`);
    await page.waitForFunction(() => {
      const input = document.querySelector("#browse-search");
      return Boolean(input && Object.keys(input).some((key) => key.startsWith("__reactProps")));
    });
    await expect(cards(page)).toHaveCount(2);
    const badges = cards(page).filter({ hasText: checked.title }).getByTestId("card-badges").getByRole("listitem");
    await expect(badges).toHaveText(["Phone confirmed", "Photos checked"]);
    for (const card of await cards(page).all())
      expect(await card.getByTestId("card-badges").getByRole("listitem").count()).toBeLessThanOrEqual(2);

    await page.getByRole("checkbox", { name: "Phone confirmed only" }).check();
    await expect(page).toHaveURL(/[?&]phone=confirmed/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText(checked.title);
    await chip(page).click();
    await expect(cards(page)).toHaveCount(2);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("'Phone confirmed only' filters with the form, and its chip is a link", async ({ page }) => {
    const { checked, word } = await twoListings();
    await page.goto(`/browse?search=${word}`);
    await expect(cards(page)).toHaveCount(2);
    await page.getByRole("checkbox", { name: "Phone confirmed only" }).check();
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/[?&]phone=confirmed/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText(checked.title);
    await expect(page.getByRole("checkbox", { name: "Phone confirmed only" })).toBeChecked();
    await chip(page).click();
    await expect(cards(page)).toHaveCount(2);
  });
});
