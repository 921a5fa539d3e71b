import { expect, test } from "@playwright/test";
import { adRow, logIn, postListing, signedInOwner, uniqueWord } from "./owners";
import { withServerDb } from "./server-db";

// ADR 020, through the real server: an owner deleting a reported
// listing takes it out of every public view and out of My Ads, while a
// moderator still finds it with its report in /admin; a hidden listing's
// photos answer 404 and public photos are not cached for a year.

/** A report row as the report form stores it (the report route itself is covered elsewhere). */
function reportListing(id: string) {
  const at = new Date().toISOString();
  withServerDb((db) =>
    db
      .prepare(
        "INSERT INTO reports (id, listingId, reporterName, reporterEmail, reporterContact, reason, description, status, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)",
      )
      .run(
        crypto.randomUUID(),
        Number(id),
        "Worried Student",
        "student@example.lk",
        "",
        "fake-listing",
        "Asked for key money before any visit",
        at,
        at,
      ),
  );
}

function makeModerator(email: string) {
  withServerDb((db) => db.prepare("UPDATE users SET role = 'moderator' WHERE email = ?").run(email));
}

test("an owner deletes a reported listing: 404 for everyone, gone from browse, the API, the sitemap and My Ads; a moderator still sees it with its report", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signedInOwner(page, { name: "Evidence Owner" });
  const word = uniqueWord();
  const title = `Reported room ${word}`;
  await postListing(page, title);
  const row = adRow(page, title);
  const id = (await row.getAttribute("data-ad-id"))!;
  const href = (await row.getByRole("link", { name: title, exact: true }).getAttribute("href"))!;
  const photoSrc = await page.request.get(href).then(async (r) => /\/photos\/[\w-]+\.webp/.exec(await r.text())?.[0]);
  expect(photoSrc).toBeTruthy();
  const publicPhoto = await page.request.get(photoSrc!);
  expect(publicPhoto.status()).toBe(200);
  expect(publicPhoto.headers()["cache-control"]).not.toMatch(/immutable|max-age=31536000/);
  reportListing(id);

  page.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("link", { name: /^Delete / }).click();
  await expect(page.getByText("Ad deleted successfully!")).toBeVisible();
  await expect(page.getByText("You have 0 ads.")).toBeVisible();
  await expect(page.getByRole("link", { name: title })).toHaveCount(0);

  const visitor = await browser.newContext();
  const anonymous = visitor.request;
  expect((await anonymous.get(href)).status()).toBe(404);
  expect((await anonymous.get(`/api/listings/${id}`)).status()).toBe(404);
  expect((await anonymous.get(photoSrc!)).status()).toBe(404);
  expect(await (await anonymous.get(`/api/listings?search=${word}`)).json()).toMatchObject({ ads: [] });
  const browse = await visitor.newPage();
  await browse.goto(`/browse?search=${word}`);
  await expect(browse.getByText("No listings found")).toBeVisible();
  const sitemaps = await (await anonymous.get("/sitemap.xml")).text();
  const files = [...sitemaps.matchAll(/<loc>[^<]*(\/sitemap[^<]*\.xml)<\/loc>/g)].map((m) => m[1]!);
  for (const file of files.length > 0 ? files : ["/sitemap.xml"])
    expect(await (await anonymous.get(file)).text()).not.toContain(href);
  await visitor.close();

  const modContext = await browser.newContext();
  const moderator = await modContext.newPage();
  const { email: modEmail } = await signedInOwner(moderator, { name: "Evidence Moderator" });
  makeModerator(modEmail);
  await moderator.context().clearCookies();
  await logIn(moderator, modEmail, "Secret-pass1");
  await moderator.goto("/admin");
  const group = moderator.locator(`li[data-listing-id="${id}"]`);
  await expect(group).toContainText(title);
  await expect(group).toContainText("1 report, 1 pending");
  await group.getByRole("link", { name: /^Fake Listing by Worried Student/ }).click();
  await expect(moderator.getByText("Deleted by its owner (kept for moderators)")).toBeVisible();
  await expect(moderator.getByText(`#${id} ${title}`)).toBeVisible();
  await expect(moderator.getByText("Asked for key money before any visit")).toBeVisible();
  await modContext.close();
});
