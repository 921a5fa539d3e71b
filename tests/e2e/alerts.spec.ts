import { expect, type Page, test } from "@playwright/test";
import { alterEnd } from "../tamper";
import { runJob } from "./jobs";
import { type ReceivedMail, readMails, waitForMail } from "./mail";
import { postListing, signedInOwner, uniqueWord } from "./owners";

// ADR 058, in the browser: 'Email me new places like these' from
// browse, the confirmation email through the real SMTP sink, Confirm, the
// daily email of new places (the job run by hand, as an operator would), its
// one-click stop (the link, and the List-Unsubscribe-Post header), Undo, and
// the manage page. With and without JavaScript.

test.describe.configure({ timeout: 90_000 });

/** `npm run job -- search-alerts`, its mail going through the test server's sender. */
const runAlertsJob = (baseURL: string) => runJob("search-alerts", baseURL);

/** The path of an email's link to /alerts/{kind}/…, to open on the test server. */
function linkPath(mail: ReceivedMail, kind: "confirm" | "stop" | "manage"): string {
  const match = mail.text.match(new RegExp(`https?://[^/\\s]+(/alerts/${kind}/[A-Za-z0-9_.-]+)`));
  if (!match) throw new Error(`no ${kind} link in: ${mail.text}`);
  return match[1];
}

async function askForAlert(page: Page, word: string, email: string) {
  await page.goto(`/browse?search=${word}`);
  await page.getByRole("link", { name: "Email me new places like these" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Email me new places like these");
  await expect(page.getByTestId("alert-search")).toContainText(`“${word}”`);
  await page.getByLabel("Your email address").fill(email);
  await page.getByRole("button", { name: "Email me new places" }).click();
  await expect(page.getByTestId("alert-sent")).toContainText("Check your inbox");
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("ask, confirm from the email, manage and stop", async ({ page }) => {
      const word = uniqueWord();
      const email = `${word}@example.lk`;

      await page.goto("/alerts/new?search=x");
      await page.getByLabel("Your email address").fill("not an address");
      await page.getByRole("button", { name: "Email me new places" }).click();
      await expect(page.getByText("Enter an email address like name@example.com.")).toBeVisible();

      await askForAlert(page, word, email);
      const confirmation = await waitForMail(email, "Confirm your alert for new places");
      expect(readMails({ to: email })).toHaveLength(1);

      await page.goto(linkPath(confirmation, "confirm"));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Start this alert?");
      await page.getByRole("button", { name: "Confirm" }).click();
      await expect(page.getByTestId("alert-confirmed")).toContainText("Your alert is on");

      await page.getByRole("link", { name: "Your alerts" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your alerts");
      const list = page.getByTestId("alert-list");
      await expect(list.getByRole("listitem")).toHaveCount(1);
      await expect(list).toContainText(`“${word}”`);
      await list.getByRole("button", { name: `Stop the alert for “${word}”` }).click();
      await expect(page.getByTestId("alerts-notice")).toHaveText("Alert stopped: no more emails for it.");
      await expect(page.getByText("You have no alerts.")).toBeVisible();

      // Not a link anyone could make up.
      const bad = await page.goto(alterEnd(linkPath(confirmation, "confirm"), 3));
      expect(bad?.status()).toBe(404);
      await expect(page.getByTestId("alert-problem")).toContainText("This link is not valid");
    });
  });
}

test("the daily email lists new places, and stops in one click (link or List-Unsubscribe-Post)", async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  const word = uniqueWord();
  const email = `${word}@example.lk`;
  const student = await browser.newContext({ javaScriptEnabled: false });
  const studentPage = await student.newPage();
  await askForAlert(studentPage, word, email);
  await studentPage.goto(linkPath(await waitForMail(email, "Confirm your alert"), "confirm"));
  await studentPage.getByRole("button", { name: "Confirm" }).click();
  await expect(studentPage.getByTestId("alert-confirmed")).toBeVisible();
  // Another address asks for the same search and never confirms: it must get nothing but the confirmation.
  const neverConfirmed = `${uniqueWord()}@example.lk`;
  await askForAlert(studentPage, word, neverConfirmed);
  await waitForMail(neverConfirmed, "Confirm your alert");

  // Nothing new yet: the job sends nothing.
  expect(await runAlertsJob(baseURL!)).toContain("search-alerts: emailed 0");

  // An owner posts a place that matches.
  await signedInOwner(page);
  await postListing(page, `Annex ${word}`);
  expect(await runAlertsJob(baseURL!)).toContain("search-alerts: emailed 1");
  const digest = await waitForMail(email, /1 new place/, 20_000);
  expect(digest.text).toContain(`Annex ${word}`);
  expect(readMails({ to: neverConfirmed }).map((mail) => mail.subject)).toEqual([
    expect.stringContaining("Confirm your alert"),
  ]);
  expect(digest.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  const unsubscribeUrl = digest.headers["list-unsubscribe"].slice(1, -1);
  expect(new URL(unsubscribeUrl).pathname).toBe(linkPath(digest, "stop").replace("/stop/", "/unsubscribe/"));

  // The link in the text stops it at once; Undo turns it back on.
  await studentPage.goto(linkPath(digest, "stop"));
  await expect(studentPage.getByTestId("alert-stopped")).toContainText("Alert stopped");
  await studentPage.getByRole("button", { name: "Undo: turn it back on" }).click();
  await expect(studentPage.getByTestId("alerts-notice")).toHaveText("Your alert is back on");
  await expect(studentPage.getByTestId("alert-list").getByRole("listitem")).toHaveCount(1);

  // A mail service's one-click POST (RFC 8058): from its own servers, no cookie, its own Origin.
  const oneClick = await request.post(new URL(unsubscribeUrl).pathname, {
    form: { "List-Unsubscribe": "One-Click" },
    headers: { Origin: "https://mail.example.com" },
  });
  expect(oneClick.status()).toBe(200);
  await studentPage.reload();
  await expect(studentPage.getByText("You have no alerts.")).toBeVisible();
  await student.close();
});

test("a signed-in user's own confirmed address needs no confirmation; settings lead to the alerts", async ({
  page,
}) => {
  const { email } = await signedInOwner(page);
  const word = uniqueWord();
  await page.goto(`/browse?search=${word}&propertyType=single`);
  await page.getByRole("link", { name: "Email me new places like these" }).click();
  await expect(page.getByLabel("Your email address")).toHaveValue(email);
  await page.getByRole("button", { name: "Email me new places" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your alerts");
  await expect(page.getByTestId("alerts-notice")).toHaveText("Your alert is on.");
  await expect(page.getByTestId("alert-list")).toContainText(`“${word}”, Single Room`);
  expect(readMails({ to: email, subject: "Confirm your alert" })).toHaveLength(0);

  await page.goto("/dashboard/settings");
  // A button that makes a fresh manage link when pressed (ADR 067): the page itself holds none.
  await page.getByRole("button", { name: "See my alerts" }).click();
  await expect(page.getByTestId("alert-list").getByRole("listitem")).toHaveCount(1);
});
