import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";

// Site layout (header, drawer, footer), home, about, contact, policies and 404.

/** The menu link becomes a button once React has hydrated the page. */
async function waitForHydration(page: Page) {
  await page.locator('button[aria-controls="site-menu"]').waitFor({ state: "attached" });
}

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test.describe("home search", () => {
  test("sends the chosen filters to /browse and leaves empty choices out", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.getByLabel("University").selectOption("University of Moratuwa");
    await page.getByLabel("Room type").selectOption("single");
    await page.getByLabel("Max price per month").selectOption("30000");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/browse\?/);
    const params = new URL(page.url()).searchParams;
    expect(params.get("university")).toBe("University of Moratuwa");
    expect(params.get("propertyType")).toBe("single");
    expect(params.get("maxPrice")).toBe("30000");
    expect([...params.keys()].sort()).toEqual(["maxPrice", "propertyType", "university"]);
  });

  test("shows the real number of public listings", async ({ page, request }) => {
    const stat = page.locator('[data-stat="listings"]');
    // Other browser tests post listings meanwhile: asked again until none came in between.
    await expect(async () => {
      const api = await request.get("/api/listings?limit=1");
      const total = ((await api.json()) as { pagination: { total: number } }).pagination.total;
      expect(total).toBeGreaterThan(0);
      await page.goto("/");
      await expect(stat).toContainText(/boarding places? listed/);
      await expect(stat.locator("dd")).toHaveText(total.toLocaleString("en"), { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.locator('[data-stat="universities-supported"] dd')).toHaveText("15");
    await expect(page.locator("body")).not.toContainText(/verified listings|500\+|1000\+|24\/7 support/i);
  });

  test("names the site and offers site search to search engines", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle("Bodima – Boarding places near your university in Sri Lanka");
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? "{}");
    expect(jsonLd["@type"]).toBe("WebSite");
    expect(jsonLd.potentialAction.target.urlTemplate).toContain("/browse?q={search_term_string}");
  });
});

test.describe("home search without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("still lands on /browse with the chosen filters", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("University").selectOption("University of Moratuwa");
    await page.getByLabel("Room type").selectOption("single");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/browse\?/);
    const params = new URL(page.url()).searchParams;
    expect(params.get("university")).toBe("University of Moratuwa");
    expect(params.get("propertyType")).toBe("single");
  });
});

test.describe("header", () => {
  test("gets its scrolled style after scrolling more than 10 px", async ({ page }) => {
    await page.goto("/");
    const header = page.locator("header").first();
    await expect(header).toHaveAttribute("data-scrolled", "false");
    expect(await header.evaluate((el) => getComputedStyle(el).boxShadow)).toBe("none");
    await page.evaluate(() => window.scrollTo(0, 200));
    await expect(header).toHaveAttribute("data-scrolled", "true");
    await expect.poll(() => header.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe("none");
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(header).toHaveAttribute("data-scrolled", "false");
  });

  test("shows the public navigation and sign-in links on wide screens", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/about");
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    for (const name of ["Browse", "List Property", "About", "Contact"]) {
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole("link", { name: "List Property" })).toHaveAttribute("href", "/login");
    await expect(nav.getByRole("link", { name: "About" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign up" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
  });
});

test.describe("mobile drawer at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("opens with Quick Actions, traps focus and closes on Escape", async ({ page }) => {
    await page.goto("/");
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await expect(drawer).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(toggle).toHaveAttribute("aria-controls", (await drawer.getAttribute("id"))!);
    await expect(drawer.getByRole("heading", { name: "Quick Actions" })).toBeVisible();
    await expect(drawer.getByRole("link", { name: "Browse Listings" })).toBeVisible();
    await expect(drawer.getByRole("link", { name: "Post New Ad" })).toBeVisible();
    await expect(drawer.getByRole("link", { name: "Sign In" })).toBeVisible();
    await expect(drawer.getByRole("link", { name: "Get Started" })).toBeVisible();

    await expect(drawer.getByRole("button", { name: "Close menu" })).toBeFocused();
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press("Tab");
      expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }

    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(toggle).toBeFocused();
  });

  test("closes when a link in it is followed", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await drawer.getByRole("link", { name: "About", exact: true }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole("heading", { level: 1, name: "About Bodima" })).toBeVisible();
    await expect(drawer).toBeHidden();
  });
});

test.describe("mobile menu without JavaScript", () => {
  test.use({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });

  test("opens from the menu link and its links work", async ({ page }) => {
    await page.goto("/");
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await expect(drawer).toBeHidden();
    await page.getByRole("link", { name: "Open menu" }).click();
    await expect(drawer).toBeVisible();
    await drawer.getByRole("link", { name: "Contact", exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole("heading", { level: 1, name: "Contact us" })).toBeVisible();
  });
});

test.describe("footer", () => {
  test("links to real support pages and shows the support email", async ({ page }) => {
    await page.goto("/");
    const footer = page.locator("footer");
    await expect(footer).toContainText("© 2024 Bodima");
    await expect(footer.getByRole("link", { name: "support@bodima.lk" })).toHaveAttribute(
      "href",
      "mailto:support@bodima.lk",
    );
    await expect(footer.getByRole("link", { name: "Help Center" })).toHaveAttribute("href", "/contact");
    await footer.getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
    await expect(page.locator("main")).toContainText("We do not sell your data");
    await page.locator("footer").getByRole("link", { name: "Terms of Service" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
    await expect(page.locator("main")).toContainText("Never pay before visiting");
  });
});

test.describe("about", () => {
  test("FAQ keeps one answer open at a time and says what was checked and what was not (ADR 080)", async ({ page }) => {
    await page.goto("/about");
    const items = page.locator('details[name="faq"]');
    await expect(items).toHaveCount(8);
    await expect(items.nth(0)).toHaveAttribute("open", "");
    await items.nth(2).locator("summary").click();
    await expect(items.nth(2)).toHaveAttribute("open", "");
    await expect(items.nth(0)).not.toHaveAttribute("open", "");
    await expect(items.nth(2)).toContainText("Nobody from Bodima visits places or meets owners");
    await items.nth(3).locator("summary").click();
    await expect(items.nth(3)).toContainText("What do 'Phone confirmed' and 'Photos checked' mean?");
    await expect(items.nth(3)).toContainText("Neither means anyone visited the place or met the owner");
    const badges = page.getByRole("region", { name: "What the badges on a listing mean" });
    await expect(badges).toContainText("Phone number confirmed by SMS: the owner entered a code we texted");
    await expect(badges).toContainText("a badge does not mean the owner is honest");
    for (const value of ["Student-First Approach", "Quick and Easy", "Innovation", "Community"]) {
      await expect(page.getByRole("heading", { name: value })).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "Browse Listings" }).last()).toHaveAttribute("href", "/browse");
    await expect(page.getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", "/contact");
  });
});

async function fillValidContact(page: Page, email: string) {
  await page.getByLabel("Your name").fill("Dilani Jayasuriya");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Subject").selectOption("Technical Support");
  await page.getByRole("textbox", { name: /^Message/ }).fill("The photos on a listing do not load on my phone.");
}

test.describe("contact form", () => {
  test("shows a message next to each empty field and a summary at the top", async ({ page }) => {
    await page.goto("/contact");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Send message" }).click();
    const summary = page.getByRole("alert").filter({ hasText: "Please fix the following:" });
    await expect(summary).toBeVisible();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ""))
      .toContain("Please fix the following:");
    await expect(page.getByLabel("Your name")).toHaveAccessibleDescription(/Please enter your name\./);
    await expect(page.getByLabel("Email address")).toHaveAccessibleDescription(/Please enter your email address\./);
    await expect(page.getByLabel("Subject")).toHaveAccessibleDescription(/Please choose a subject\./);
    await expect(page.getByRole("textbox", { name: /^Message/ })).toHaveAccessibleDescription(
      /Please enter your message\./,
    );
    await expect(page.getByLabel("Your name")).toHaveAttribute("aria-invalid", "true");
  });

  test("keeps the values and marks only the bad field", async ({ page }) => {
    await page.goto("/contact");
    await fillValidContact(page, "not-an-email");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByLabel("Email address")).toHaveAccessibleDescription(/Please enter a valid email address\./);
    await expect(page.getByLabel("Your name")).toHaveValue("Dilani Jayasuriya");
    await expect(page.getByLabel("Your name")).not.toHaveAttribute("aria-invalid", "true");
  });

  test("reports success only after the server stored the message", async ({ page }) => {
    await page.goto("/contact");
    await waitForHydration(page);
    await fillValidContact(page, "dilani@example.com");
    const response = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/contact"));
    await page.getByRole("button", { name: "Send message" }).click();
    expect((await response).status()).toBe(200);
    await expect(page.getByRole("status").filter({ hasText: "Message Sent Successfully!" })).toBeVisible();
    await expect(page.getByText("within 24 hours").last()).toBeVisible();
    await expect(page.getByRole("button", { name: "Send message" })).toHaveCount(0);
  });

  test("prefills a report about a listing from the query string", async ({ page }) => {
    await page.goto("/contact?subject=Report%20an%20Issue&listing=1234");
    await expect(page.getByLabel("Subject")).toHaveValue("Report an Issue");
    await expect(page.getByRole("textbox", { name: /^Message/ })).toHaveValue("About listing #1234: ");
  });

  test("shows the three contact cards", async ({ page }) => {
    await page.goto("/contact");
    await expect(page.getByRole("heading", { name: "Email", exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "WhatsApp or call" })).toBeVisible();
    await expect(page.getByText("Monday to Friday 9:00 AM to 6:00 PM")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Report a listing" })).toBeVisible();
  });
});

test.describe("contact form without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("validates on the server and keeps the values", async ({ page }) => {
    await page.goto("/contact");
    await page.getByLabel("Your name").fill("Ravi");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByText("Please fix the following:")).toBeVisible();
    await expect(page.getByLabel("Email address")).toHaveAccessibleDescription(/Please enter your email address\./);
    await expect(page.getByRole("textbox", { name: /^Message/ })).toHaveAccessibleDescription(
      /Please enter your message\./,
    );
    await expect(page.getByLabel("Your name")).toHaveValue("Ravi");
  });

  test("sends a valid message", async ({ page }) => {
    await page.goto("/contact");
    await fillValidContact(page, "nojs@example.com");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByText("Message Sent Successfully!")).toBeVisible();
  });
});

test.describe("not found", () => {
  for (const path of ["/nope", "/listing", "/some/deep/path"]) {
    test(`${path} answers 404 with a way back`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page).toHaveTitle("Page not found | Bodima");
      await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
      await expect(page.locator("main").getByRole("link", { name: "Go to the home page" })).toHaveAttribute(
        "href",
        "/",
      );
      await expect(page.locator("main").getByRole("link", { name: "Browse Listings" })).toHaveAttribute(
        "href",
        "/browse",
      );
    });
  }
});

test.describe("accessibility", () => {
  for (const path of ["/", "/about", "/contact", "/privacy", "/terms", "/login", "/alerts/new?search=annex", "/nope"]) {
    test(`${path} has no serious or critical axe violations`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(path === "/nope" ? 404 : 200);
      await expectNoSeriousAxeViolations(page);
    });
  }

  test("the open mobile drawer and the contact errors have no serious axe violations", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/contact");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByText("Please fix the following:")).toBeVisible();
    await expectNoSeriousAxeViolations(page);
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  });
});
