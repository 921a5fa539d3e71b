import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { REDIRECT_BYPASSES } from "../redirect-bypasses";
import { field, newOwner, PASSWORD, signedInOwner, submitSignUp } from "./owners";

// ADR 016, in a real browser against the production server:
// no redirect after login leaves the site, private pages are never stored by
// any cache, and the success messages stay up for the spec's delay.

const LOGIN_SUCCESS = "Login successful! Redirecting...";
const SIGNUP_SUCCESS = "Account created successfully! Redirecting to dashboard...";

/** Every request to another host is answered by us and remembered, so a redirect there shows. */
async function watchForeignRequests(context: BrowserContext, base: string): Promise<string[]> {
  const foreign: string[] = [];
  const own = new URL(base).host;
  await context.route(
    (url) => url.host !== own,
    (route) => {
      foreign.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/html", body: "<h1>evil</h1>" });
    },
  );
  return foreign;
}

async function fillLogin(page: Page, email: string) {
  await page.getByLabel("Email Address").fill(email);
  await field(page, "Password").fill(PASSWORD);
}

/**
 * Records in the page when a text first shows and when the URL first becomes
 * `path` (React Router changes it with the History API), in page time.
 */
async function recordTimings(page: Page, text: string, path: string) {
  await page.addInitScript(
    ({ text, path }) => {
      const times: { shown?: number; moved?: number } = {};
      (window as unknown as { __timings: typeof times }).__timings = times;
      new MutationObserver(() => {
        if (times.shown === undefined && document.body?.textContent?.includes(text)) times.shown = performance.now();
      }).observe(document, { subtree: true, childList: true, characterData: true });
      for (const method of ["pushState", "replaceState"] as const) {
        const original = history[method].bind(history);
        history[method] = (...args: Parameters<History["pushState"]>) => {
          original(...args);
          if (times.moved === undefined && location.pathname === path) times.moved = performance.now();
        };
      }
    },
    { text, path },
  );
  return () => page.evaluate(() => (window as unknown as { __timings: { shown?: number; moved?: number } }).__timings);
}

test.describe("open redirect after login (ADR 016)", () => {
  // Dozens of sign-ins and page loads per test.
  test.describe.configure({ timeout: 120_000 });

  test("a signed-in person opening a login link with any known bypass stays on the site", async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext();
    const foreign = await watchForeignRequests(context, baseURL!);
    const page = await context.newPage();
    page.on("dialog", (dialog) => {
      throw new Error(`a script ran: ${dialog.message()}`);
    });
    await signedInOwner(page, { name: "Redirect Owner" });
    for (const value of REDIRECT_BYPASSES) {
      // The document the redirects end on is enough: its URL is where the browser went.
      await page.goto(`/login?redirectTo=${encodeURIComponent(value)}`, { waitUntil: "commit" });
      expect(new URL(page.url()).host, JSON.stringify(value)).toBe(new URL(baseURL!).host);
    }
    // The reported one, and what the raw HTTP answer says.
    const raw = await page.request.get("/login?redirectTo=%2F%09%2Fevil.example", { maxRedirects: 0 });
    expect(raw.status()).toBe(302);
    expect(raw.headers().location).toBe("/dashboard");
    expect(foreign).toEqual([]);
    await context.close();
  });

  test("signing in from a poisoned login link, with and without JavaScript, lands on the dashboard", async ({
    browser,
    baseURL,
  }) => {
    const { email } = await newOwner({ name: "Poisoned Link" });

    for (const javaScriptEnabled of [true, false]) {
      for (const value of ["/\t/evil.example", "/\\evil.example", "https://evil.example", "/.//evil.example"]) {
        const context = await browser.newContext({ javaScriptEnabled });
        const foreign = await watchForeignRequests(context, baseURL!);
        const page = await context.newPage();
        await page.goto(`/login?redirectTo=${encodeURIComponent(value)}`);
        if (javaScriptEnabled) await page.waitForLoadState("networkidle");
        await fillLogin(page, email);
        await page.getByRole("button", { name: "Log In" }).click();
        await expect(page, `${JSON.stringify(value)} js=${javaScriptEnabled}`).toHaveURL(/\/dashboard$/, {
          timeout: 10_000,
        });
        expect(foreign).toEqual([]);
        await context.close();
      }
    }
  });
});

test.describe("private pages are never cached (ADR 016)", () => {
  const PRIVATE = [
    "/dashboard",
    "/dashboard/settings",
    "/dashboard/listings/new",
    "/admin",
    "/admin/audit",
    "/login",
    "/signup",
    "/reset-password",
  ];
  const dataUrl = (path: string) => `${path}.data`;

  for (const signedIn of [false, true]) {
    test(`documents and .data requests answer Cache-Control: no-store (${signedIn ? "signed in" : "signed out"})`, async ({
      page,
      request,
    }) => {
      if (signedIn) await signedInOwner(page, { name: "Cache Owner" });
      const client = signedIn ? page.request : request;
      for (const path of PRIVATE) {
        for (const url of [path, dataUrl(path), `${path}?redirectTo=%2Fdashboard`]) {
          // Twice: a page cache that stored the first would answer the second.
          for (let round = 0; round < 2; round++) {
            const response = await client.get(url, { maxRedirects: 0 });
            expect(response.status(), url).toBeLessThan(500);
            expect(response.headers()["cache-control"], `${url} (${signedIn ? "signed in" : "signed out"})`).toBe(
              "no-store",
            );
            expect(response.headers()["x-page-cache"], url).toBeUndefined();
          }
        }
      }
    });
  }
});

test.describe("success messages stay for the spec's delay (ADR 016)", () => {
  test("login: 'Login successful! Redirecting...' is shown for about a second before /dashboard", async ({
    browser,
  }) => {
    const { email } = await newOwner({ name: "Timer Owner" });

    const context = await browser.newContext();
    const page = await context.newPage();
    const timings = await recordTimings(page, LOGIN_SUCCESS, "/dashboard");
    await page.goto("/login");
    await page.waitForLoadState("networkidle");
    await fillLogin(page, email);
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page.getByText(LOGIN_SUCCESS)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
    const { shown, moved } = await timings();
    expect(shown).toBeDefined();
    expect(moved).toBeDefined();
    expect(moved! - shown!).toBeGreaterThanOrEqual(800);
    await context.close();
  });

  test("sign-up: the success message is shown for about 1.5 seconds before /dashboard", async ({ page }) => {
    const timings = await recordTimings(page, SIGNUP_SUCCESS, "/dashboard");
    // The form alone: confirming the address afterwards loads other pages, which would reset the timings.
    await submitSignUp(page, "Timer Signup");
    const { shown, moved } = await timings();
    expect(shown).toBeDefined();
    expect(moved).toBeDefined();
    expect(moved! - shown!).toBeGreaterThanOrEqual(1300);
  });

  test("without JavaScript, logging in goes straight to the dashboard", async ({ browser }) => {
    const { email } = await newOwner({ name: "No Script Owner" });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/login");
    await fillLogin(page, email);
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome back, No Script Owner!");
    await context.close();
  });
});

test("a parallel burst of wrong passwords for one account over HTTP gets 5 tries, then 429 with Retry-After (ADR 016)", async ({
  request,
  baseURL,
}) => {
  const { email } = await newOwner({ name: "Burst Owner" });
  const answers = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      request.post("/login", {
        form: { intent: "login", email, password: `Wrong-pass${i}` },
        headers: { Origin: baseURL! },
        maxRedirects: 0,
      }),
    ),
  );
  const statuses = answers.map((a) => a.status());
  expect(statuses.filter((s) => s === 401)).toHaveLength(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  for (const answer of answers.filter((a) => a.status() === 429)) {
    expect(Number(answer.headers()["retry-after"])).toBeGreaterThan(0);
    expect(answer.headers()["cache-control"]).toBe("no-store");
  }
});
