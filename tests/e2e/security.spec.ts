import { createHash } from "node:crypto";
import http from "node:http";
import { expect, type Page, test } from "@playwright/test";
import { field, photo, signedInOwner, uniqueWord } from "./owners";

// Hardening (ADR 010): security headers with a per-response CSP nonce, no
// CSP violation while the site is used, hostile listing text shown as text,
// and cross-origin form posts refused before any route code runs.

const FOREIGN = "http://evil.example";
const REFUSED = "This form was sent from another website, so it was not accepted.";

function nonceOf(csp: string | undefined): string {
  const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp ?? "")?.[1];
  expect(nonce, csp).toBeTruthy();
  return nonce!;
}

/** Collects CSP violations and console complaints about the policy, from before any page script runs. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Permissions-Policy/i.test(message.text())) console.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return async () => [
    ...console,
    ...(await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])),
  ];
}

/** The inline scripts of a page that would run (not JSON-LD data blocks), with their attributes and text. */
function inlineScripts(html: string) {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .map(([, attrs, body]) => ({ attrs, body }))
    .filter(({ attrs, body }) => !attrs.includes("application/ld+json") && !/\ssrc=/.test(attrs) && body !== "");
}

test("pages rendered for one request carry a fresh nonce on each inline script", async ({ request }) => {
  const nonces = new Set<string>();
  for (const path of ["/login", "/signup", "/no-such-page", "/login"]) {
    const response = await request.get(path);
    const headers = response.headers();
    expect(headers["x-page-cache"], path).toBeUndefined();
    const nonce = nonceOf(headers["content-security-policy"]);
    expect(nonces.has(nonce), `nonce reused on ${path}`).toBe(false);
    nonces.add(nonce);
    expect(headers["content-security-policy"]).not.toMatch(/script-src[^;]*unsafe-inline/);
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)]
      .map((m) => m[1])
      .filter((attrs) => !attrs.includes("application/ld+json"));
    expect(scripts.length, path).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs, path).toContain(`nonce="${nonce}"`);
    expect(html).not.toMatch(/<script(?![^>]*nonce=)(?![^>]*ld\+json)[^>]*>/);
  }
});

test("cached public pages name the hash of every inline script and nothing else runs (ADR 012)", async ({
  request,
}) => {
  for (const path of ["/", "/browse", "/about", "/"]) {
    const response = await request.get(path);
    const csp = response.headers()["content-security-policy"] ?? "";
    expect(csp, path).not.toMatch(/script-src[^;]*(unsafe-inline|nonce-)/);
    expect(csp).toContain("frame-ancestors 'none'");
    const allowed = new Set(
      /script-src ([^;]*)/
        .exec(csp)![1]
        .split(" ")
        .filter((s) => s.startsWith("'sha256-")),
    );
    const scripts = inlineScripts(await response.text());
    expect(scripts.length, path).toBeGreaterThan(0);
    for (const { body } of scripts) {
      const hash = `'sha256-${createHash("sha256").update(body).digest("base64")}'`;
      expect(allowed.has(hash), `${path}: inline script without its hash`).toBe(true);
    }
  }
});

test("every response has the security headers", async ({ request }) => {
  for (const path of ["/favicon.svg", "/api/listings", "/robots.txt"]) {
    const headers = (await request.get(path)).headers();
    expect(headers["content-security-policy"], path).toContain("object-src 'none'");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"], path).toContain("camera=()");
    expect(headers["strict-transport-security"], "no HSTS over plain http").toBeUndefined();
  }
});

test("no CSP violation on the public pages, the login page and the dashboard, and the app still hydrates", async ({
  page,
}) => {
  const violations = await watchCsp(page);
  await page.goto("/");
  await page.goto("/browse");
  // A behaviour only React provides: the header changes once the page scrolls.
  const header = page.locator("header[data-scrolled]");
  await expect(header).toHaveAttribute("data-scrolled", "false");
  await page.mouse.wheel(0, 600);
  await expect(header).toHaveAttribute("data-scrolled", "true");
  await page.locator('a[href^="/listing/"]').first().click();
  await expect(page).toHaveURL(/\/listing\//);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.goto("/login");
  await signedInOwner(page);
  await page.goto("/dashboard");
  await page.goto("/dashboard/settings");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The photo picker previews a chosen photo from a blob: URL and uploads it with fetch.
  await page.goto("/dashboard/listings/new");
  // Hydrated first: until then the input is the no-JavaScript one, which previews nothing.
  await expect(field(page, "Photos")).not.toHaveAttribute("name", "photos");
  await field(page, "Photos").setInputFiles([await photo({ r: 30, g: 90, b: 160 }, "preview.jpg")]);
  // The blob: preview shows while uploading, then the uploaded photo: either must load.
  const thumbnail = page.locator('form img[src^="blob:"], form img[src^="/photos/"]').first();
  await expect(thumbnail).toBeVisible();
  await expect(thumbnail).toHaveJSProperty("complete", true);
  expect(await violations()).toEqual([]);
});

test("a listing with script and img payloads in its text shows them as text and runs nothing", async ({
  page,
  baseURL,
}) => {
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  const violations = await watchCsp(page);
  const owner = await signedInOwner(page);
  const word = uniqueWord();
  const title = `<script>alert(1)</script> Room ${word}`;
  const description = `Quiet room <img src=x onerror=alert(1)> near campus "quotes" & 'apostrophes' </textarea><b>bold</b>`;
  // Posted as the plain (no-JS) form does, with this owner's session.
  const posted = await page.request.post("/dashboard/listings/new", {
    headers: { Origin: baseURL! },
    maxRedirects: 0,
    multipart: {
      title,
      description,
      price: "15000",
      keymoneyFee: "",
      university: "University of Moratuwa",
      faculty: "Main Campus",
      propertyType: "single",
      gender: "any",
      mapLink: "",
      location: "Katubedda",
      contactName: "Poster Owner",
      // The number the owner confirmed by SMS (ADR 076): no code is asked.
      contactPhone: owner.phone,
      photos: await photo({ r: 90, g: 140, b: 60 }, "room.jpg"),
    },
  });
  expect(posted.status(), await posted.text()).toBeLessThan(400);

  await page.goto(`/browse?search=${word}`);
  const card = page.getByRole("link", { name: title, exact: true });
  await expect(card).toBeVisible();
  await card.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.getByText(description)).toBeVisible();
  // No element was made from the payloads.
  await expect(page.locator('main img[src="x"], main b:text("bold")')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  expect(dialogs).toEqual([]);
  expect(await violations()).toEqual([]);

  // The policy is enforced, not only declared: an injected inline script without the nonce does not run.
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__injected = true; alert('injected')";
    document.body.append(script);
  });
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
  await expect.poll(violations).toContainEqual(expect.stringMatching(/^script-src/));
  expect(dialogs).toEqual([]);
});

test("a form on another website posting to our pages is refused with 403", async ({ page, baseURL }) => {
  // A page on a foreign origin with an auto-submitting form, as an attacker would host it.
  await page.route(`${FOREIGN}/**`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<form method="post" action="${baseURL}/contact"><input name="name" value="x"><input name="email" value="x@example.com"><input name="subject" value="Other"><input name="message" value="hi"><button>Send</button></form>`,
    }),
  );
  await page.goto(`${FOREIGN}/attack`);
  const [response] = await Promise.all([
    page.waitForResponse(`${baseURL}/contact`),
    page.getByRole("button", { name: "Send" }).click(),
  ]);
  expect(response.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Request refused" })).toBeVisible();
  await expect(page.getByText(REFUSED)).toBeVisible();
});

test("foreign-origin posts to contact, login and a dashboard action get 403, even signed in", async ({ page }) => {
  await signedInOwner(page, { name: "Origin Owner" });
  for (const [path, form] of [
    ["/contact", { name: "x", email: "x@example.com", subject: "Other", message: "hello there" }],
    ["/login", { email: "someone@example.com", password: "whatever-1" }],
    ["/dashboard/settings", { name: "Hijacked", phone: "0771234567" }],
    ["/logout", {}],
  ] as const) {
    const response = await page.request.post(path, { form, headers: { Origin: FOREIGN }, maxRedirects: 0 });
    expect(response.status(), path).toBe(403);
    expect(await response.text(), path).toContain(REFUSED);
  }
  const api = await page.request.post("/updateViewCount", { data: { adId: 1 }, headers: { Origin: FOREIGN } });
  expect(api.status()).toBe(403);
  expect((await api.json()).error).toContain("another website");
  // Still signed in, name unchanged.
  await page.goto("/dashboard/settings");
  await expect(field(page, "Full Name")).toHaveValue("Origin Owner");
});

/** A raw GET with a Host header no browser would send (Playwright keeps its own). */
function getWithHost(baseURL: string, host: string) {
  const url = new URL(baseURL);
  return new Promise<{ status: number; body: string; requestId: string }>((resolve, reject) => {
    http
      // A page no cache answers (the home page may be a page-cache hit, sent before the Host is read).
      .get({ hostname: url.hostname, port: url.port, path: "/login", headers: { Host: host } }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body, requestId: String(res.headers["x-request-id"]) }),
        );
      })
      .on("error", reject);
  });
}

/** A raw GET of `path` (sent as written, "//" and all) with extra headers; its status and Location. */
function rawGet(baseURL: string, path: string, headers: Record<string, string> = {}) {
  const url = new URL(baseURL);
  return new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
    http
      .get({ hostname: url.hostname, port: url.port, path, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
      })
      .on("error", reject);
  });
}

test("the language switcher never sends anyone to another site (ADR 062)", async ({ baseURL }) => {
  const site = new URL(baseURL!).origin;
  const attacks: [string, Record<string, string>][] = [
    ["/language/en?next=/si//evil.example/phish", {}],
    ["/language/en?next=/ta//evil.example", {}],
    ["/language/si?next=/browse", { Host: "evil.example" }],
    ["//evil.example/language/en?next=/browse", {}],
  ];
  for (const [path, headers] of attacks) {
    const { status, location } = await rawGet(baseURL!, path, headers);
    expect(status, path).toBeLessThan(500);
    if (location) expect(new URL(location, site).origin, `${path} ${JSON.stringify(headers)}`).toBe(site);
  }
  expect((await rawGet(baseURL!, "/language/si?next=/browse", { Host: "evil.example" })).location).toBe(
    `${site}/si/browse`,
  );
});

test("an oversized body gets 413 and a malformed request a short page without a stack trace", async ({
  request,
  baseURL,
}) => {
  const big = await request.post("/contact", {
    form: { name: "x", email: "x@example.com", subject: "Other", message: "m".repeat(70_000) },
  });
  expect(big.status()).toBe(413);
  expect(await big.text()).toContain("larger than this page accepts");
  const malformed = await request.get("/%E0%A4%A");
  expect(malformed.status()).toBeLessThan(500);
  expect(await malformed.text()).not.toMatch(/URIError|at \w+ \(|node_modules/);
  const badHost = await getWithHost(baseURL!, "bad host");
  expect(badHost.status).toBe(400);
  expect(badHost.body).toContain("could not be understood");
  expect(badHost.body).toContain(`Reference: ${badHost.requestId}`);
  expect(badHost.body).not.toMatch(/Invalid URL|at \w+ \(|node_modules|\.js:\d+/);
});
