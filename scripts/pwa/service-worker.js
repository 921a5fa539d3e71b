// Bodima's service worker (ADR 088), written by hand. scripts/pwa.ts copies it to build/client/sw.js
// after `react-router build`, putting this build's version, precache list and texts in place of the
// placeholder BUILD is set to below. Plain ES2020, no imports: it is served as it is.
/* global self, caches, fetch, location, Response, URL, Headers */
const BUILD = self.__BODIMA_BUILD__;

/** This build's hashed files: replaced whole by the next build's worker. */
const ASSETS = `bodima-assets-${BUILD.version}`;
/** The shortlist page, the saved places and their first photos; what is kept does not depend on the build. */
const SAVED = "bodima-saved-v1";
/** The last few listing pages looked at. */
const RECENT = "bodima-recent-v1";
const KEPT_CACHES = [ASSETS, SAVED, RECENT];
const RECENT_PAGES = 5;
const PHOTOS_PER_PLACE = 2;
/** The phone-sized variant of a photo (PHOTO_WIDTHS in app/models/photo.server.ts). */
const PHONE_WIDTH = 400;
const NETWORK_WAIT_MS = 3000;
/** Headers the worker adds to what it keeps. */
const SAVED_AT = "X-Bodima-Saved-At";
const PHOTOS = "X-Bodima-Photos";

const LOCALE = /^\/(si|ta)(?=\/|$)/;
/** Pages that are someone's own or that change what they show with every answer: never kept. */
const NEVER_KEPT =
  /^(?:\/(?:si|ta))?\/(?:dashboard|admin|login|signup|logout|reset-password|confirm-email|api|dev)(?:\/|$)/;
const SHORTLIST = /^(?:\/(?:si|ta))?\/shortlist\/?$/;
const LISTING = /^(?:\/(?:si|ta))?\/listing\/[^/]+\/?$/;
const PHOTO = /\/[0-9a-f-]{36}-(\d{2,4})\.webp$/;
/** The worker's own page for a form a page's script could not send (toOfflinePost); never asked of the server. */
const OFFLINE_POST = /^(?:\/(?:si|ta))?\/offline-post$/;

function localeOf(pathname) {
  const match = LOCALE.exec(pathname);
  return match ? match[1] : "en";
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(ASSETS).then((cache) => cache.addAll(BUILD.precache)));
});

// The old build's caches go once this worker takes over; a page still open on the old build kept the
// old worker (no skipWaiting), so no page mixes one build's scripts with another's.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith("bodima-") && !KEPT_CACHES.includes(name))
            .map((n) => caches.delete(n)),
        ),
      ),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET") {
    if (request.mode === "navigate") event.respondWith(fetch(request).catch(() => offlinePage(url, "post")));
    else if (url.origin === location.origin && url.pathname.endsWith(".data"))
      event.respondWith(fetch(request).catch(() => toOfflinePost()));
    return;
  }
  if (request.mode === "navigate") {
    if (url.origin !== location.origin) return;
    if (OFFLINE_POST.test(url.pathname)) {
      event.respondWith(offlinePage(url, "post"));
      return;
    }
    if (NEVER_KEPT.test(url.pathname)) event.respondWith(fetch(request).catch(() => offlinePage(url, "page")));
    else event.respondWith(navigate(event, url));
    return;
  }
  if (url.origin === location.origin && BUILD.precache.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname, { cacheName: ASSETS }).then((hit) => hit || fetch(request)));
    return;
  }
  if (PHOTO.test(url.pathname)) event.respondWith(fetch(request).catch(() => keptPhoto(url)));
});

/** Network first; after about 3 s without an answer (or at once when offline) the kept copy, else the offline page. */
async function navigate(event, url) {
  const network = fetch(event.request).then(
    (response) => response,
    () => null,
  );
  const timer = new Promise((resolve) => setTimeout(resolve, NETWORK_WAIT_MS, "slow"));
  const first = await Promise.race([network, timer]);
  if (first && first !== "slow") {
    event.waitUntil(keep(url, first.clone()));
    return first;
  }
  const copy = await keptPage(url);
  if (copy) return copy;
  const late = first === "slow" ? await network : null;
  if (late) {
    event.waitUntil(keep(url, late.clone()));
    return late;
  }
  return offlinePage(url, "page");
}

/** Whether an answer may be kept: a whole public page, never one marked no-store (every signed-in page is). */
function keepable(response) {
  if (response.status !== 200 || response.type !== "basic" || response.redirected) return false;
  if (/no-store/i.test(response.headers.get("Cache-Control") || "")) return false;
  return (response.headers.get("Content-Type") || "").startsWith("text/html");
}

async function keep(url, response) {
  const key = url.origin + url.pathname;
  if (!keepable(response)) return;
  if (SHORTLIST.test(url.pathname)) {
    const html = await response.text();
    await put(SAVED, key, html, response.headers, []);
    await keepSavedPlaces(url, html);
  } else if (LISTING.test(url.pathname)) {
    const html = await response.text();
    const photos = await keepPhotos(RECENT, html, url);
    await put(RECENT, key, html, response.headers, photos);
    await trimRecent();
    // A saved place seen again: its saved copy is brought up to date too.
    if (await caches.match(key, { cacheName: SAVED })) await put(SAVED, key, html, response.headers, photos);
  }
}

function put(cacheName, key, html, headers, photos) {
  const kept = new Headers(headers);
  kept.set(SAVED_AT, new Date().toISOString());
  kept.set(PHOTOS, photos.join(" "));
  return caches.open(cacheName).then((cache) => cache.put(key, new Response(html, { status: 200, headers: kept })));
}

/** The shortlist's places in the page's language are fetched and kept; places no longer on it are dropped. */
async function keepSavedPlaces(shortlistUrl, html) {
  const prefix = localeOf(shortlistUrl.pathname) === "en" ? "" : `/${localeOf(shortlistUrl.pathname)}`;
  const wanted = new Set();
  for (const match of html.matchAll(/href="(\/(?:si\/|ta\/)?listing\/[^"/?#]+)"/g))
    if (match[1].startsWith(`${prefix}/listing/`)) wanted.add(shortlistUrl.origin + match[1]);
  const cache = await caches.open(SAVED);
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (!LISTING.test(path) || wanted.has(request.url)) continue;
    const old = await cache.match(request);
    for (const photo of (old.headers.get(PHOTOS) || "").split(" ").filter(Boolean)) await cache.delete(photo);
    await cache.delete(request);
  }
  await Promise.all([...wanted].map((place) => keepSavedPlace(place)));
}

async function keepSavedPlace(place) {
  // `Purpose: prefetch`: the worker fetching a page is not someone looking at it (no view counted).
  // `cache: "no-store"`: the worker's copy is the one kept; none goes to the HTTP cache beside it.
  const response = await fetch(place, { headers: { Purpose: "prefetch" }, cache: "no-store" }).catch(() => null);
  if (!response || !keepable(response)) return;
  const html = await response.text();
  const photos = await keepPhotos(SAVED, html, new URL(place));
  await put(SAVED, place, html, response.headers, photos);
}

/** The first two photos of a listing page, at phone size, into the cache; their URLs. */
async function keepPhotos(cacheName, html, pageUrl) {
  const urls = [];
  for (const match of html.matchAll(/(?:src|srcset|href)="([^"\s]+\/[0-9a-f-]{36})-\d{2,4}\.webp/gi)) {
    const url = new URL(`${match[1]}-${PHONE_WIDTH}.webp`, pageUrl).href;
    if (!urls.includes(url)) urls.push(url);
    if (urls.length === PHOTOS_PER_PLACE) break;
  }
  const cache = await caches.open(cacheName);
  const kept = [];
  for (const url of urls) {
    const mode = new URL(url).origin === location.origin ? "same-origin" : "cors";
    const response = await fetch(url, { mode, cache: "no-store" }).catch(() => null);
    if (!response?.ok) continue;
    await cache.put(url, response);
    kept.push(url);
  }
  return kept;
}

async function trimRecent() {
  const cache = await caches.open(RECENT);
  const pages = (await cache.keys()).filter((request) => LISTING.test(new URL(request.url).pathname));
  for (const request of pages.slice(0, Math.max(0, pages.length - RECENT_PAGES))) {
    const old = await cache.match(request);
    for (const photo of (old.headers.get(PHOTOS) || "").split(" ").filter(Boolean)) await cache.delete(photo);
    await cache.delete(request);
  }
}

/** Any kept size of the photo asked for (the page's srcset may ask for a wider one than was kept). */
async function keptPhoto(url) {
  const exact = await caches.match(url.href);
  if (exact) return exact;
  const phone = await caches.match(
    url.href.replace(PHOTO, (whole, width) => whole.replace(`-${width}.`, `-${PHONE_WIDTH}.`)),
  );
  return phone || Response.error();
}

/**
 * A kept page as it is shown without a connection: its scripts removed, under a policy that runs none
 * (the page works without JavaScript; its old nonce must not let anything run), with the date it was kept.
 */
async function keptPage(url) {
  const key = url.origin + url.pathname;
  const kept = (await caches.match(key, { cacheName: SAVED })) || (await caches.match(key, { cacheName: RECENT }));
  if (!kept) return null;
  const lang = localeOf(url.pathname);
  const savedAt = new Date(kept.headers.get(SAVED_AT) || Date.now());
  const date = new Intl.DateTimeFormat(lang === "en" ? "en-GB" : lang, {
    dateStyle: "long",
    timeStyle: "short",
  }).format(savedAt);
  const notice = `<p role="status" data-offline-copy style="margin:0;padding:12px 16px;background:#fef3c7;color:#78350f;font-weight:600;text-align:center">${escapeHtml(BUILD.texts[lang].savedOn.replace("{date}", date))}</p>`;
  const html = (await kept.text())
    .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, "")
    .replace(/<link\b[^>]*rel="(?:modulepreload|preload)"[^>]*>/gi, "")
    .replace(/<body\b[^>]*>/i, (body) => body + notice);
  return new Response(html, { headers: offlineHeaders(kept.headers.get("Content-Security-Policy")) });
}

/** The page's own policy with scripts off and inline styles by no nonce (there is no fresh one to give). */
function offlineHeaders(policy) {
  const directives = (policy || "default-src 'self'; img-src 'self' data:")
    .split(";")
    .map((directive) => directive.trim())
    .filter((directive) => directive && !/^(?:script-src|style-src)\s/.test(directive));
  directives.push("script-src 'none'", "style-src 'self' 'unsafe-inline'");
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": directives.join("; "),
    "Cache-Control": "no-store",
  };
}

/** 'You are offline', for a page never kept ("page") or a form that could not be sent ("post"). */
function offlinePage(url, kind) {
  const lang = localeOf(url.pathname);
  const text = BUILD.texts[lang];
  const prefix = lang === "en" ? "" : `/${lang}`;
  const message = kind === "post" ? text.post : text.text;
  const again =
    kind === "post" ? "" : `<a href="${escapeHtml(url.pathname + url.search)}">${escapeHtml(text.retry)}</a> · `;
  const html = `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="theme-color" content="${BUILD.themeColor}"><title>${escapeHtml(text.title)}</title></head><body style="margin:0;font-family:system-ui,sans-serif;color:#0f172a"><main style="max-width:36rem;margin:0 auto;padding:4rem 1rem;text-align:center"><h1 style="font-size:1.5rem">${escapeHtml(text.title)}</h1><p style="line-height:1.6">${escapeHtml(message)}</p><p>${again}<a href="${prefix}/shortlist">${escapeHtml(text.shortlist)}</a></p></main></body></html>`;
  return new Response(html, {
    status: 503,
    headers: offlineHeaders("default-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'"),
  });
}

/**
 * A form posted by the page's script (a React Router fetcher: 'Save', a report) that could not be sent:
 * React Router's single-fetch redirect headers make the page load OFFLINE_POST as a document, which
 * says, in the page's language, that nothing was sent. If React Router stops reading these headers,
 * the page shows its error screen instead, as it would without the worker.
 */
function toOfflinePost() {
  const headers = {
    // React Router puts the page's language (its basename) in front.
    "X-Remix-Redirect": "/offline-post",
    "X-Remix-Status": "303",
    "X-Remix-Reload-Document": "true",
  };
  return new Response(null, { status: 204, headers });
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
