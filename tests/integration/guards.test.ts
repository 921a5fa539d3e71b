import type { RouteConfigEntry } from "@react-router/dev/routes";
import { createStaticHandler, type RouteObject, type StaticHandlerContext } from "react-router";
import { expect, it, vi } from "vitest";
import { getAuth } from "../../app/auth/auth.server";
import { moderatorsOnly, signedIn } from "../../app/auth/guard.server";
import type { DB } from "../../app/db/db.server";
import { basenameOf, localeOfPath } from "../../app/i18n/locales";
import { inLocale } from "../../app/i18n/request-locale.server";
import { insertListing } from "../../app/models/listing.server";
import routeConfig from "../../app/routes";
import { requestContext } from "../../app/services.server";
import { insertTestOwner, listingInput } from "../factories";
import { signedInAccount } from "../owner-fixtures";
import { TEST_SITE, testContext } from "../request-context";
import { describeEachDatabase } from "../test-db";

// ADR 025: the dashboard and admin layouts guard every route
// below them with their middleware. These requests go through React Router's
// own pipeline (middleware, then loaders or the action), built from app/routes.ts
// and the real route modules, as the server runs them.

type Module = { loader?: unknown; action?: unknown; middleware?: unknown; ErrorBoundary?: unknown };
type Built = RouteObject & { file?: string; children?: Built[] };

const modules = import.meta.glob<Module>(["../../app/root.tsx", "../../app/routes/*.{ts,tsx}"]);

async function build(entries: RouteConfigEntry[]): Promise<Built[]> {
  return Promise.all(
    entries.map(async (entry) => {
      const module = await modules[`../../app/${entry.file}`]();
      const route = {
        id: entry.id ?? entry.file.replace(/\.tsx?$/, ""),
        path: entry.path,
        index: entry.index,
        loader: module.loader,
        action: module.action,
        middleware: module.middleware,
        ErrorBoundary: module.ErrorBoundary,
        file: entry.file,
      } as Built;
      if (!entry.index) route.children = await build(entry.children ?? []);
      return route;
    }),
  );
}

/** The app's route tree under the root, as app/routes.ts lists it; `replace` swaps a layout's children. */
async function appRoutes(replace: Record<string, Built[]> = {}): Promise<Built[]> {
  const root = await modules["../../app/root.tsx"]();
  const children = await build(routeConfig);
  for (const route of children) if (route.id && replace[route.id]) route.children = replace[route.id];
  return [{ id: "root", path: "", loader: root.loader, ErrorBoundary: root.ErrorBoundary, children } as Built];
}

type Outcome = { status: number; location: string | null; context: StaticHandlerContext | null };

/** One request through middleware and handlers, as a document request, in its URL's language and router (ADR 033). */
async function send(db: DB, routes: Built[], request: Request): Promise<Outcome> {
  const locale = localeOfPath(new URL(request.url).pathname);
  const handler = createStaticHandler(routes as RouteObject[], { basename: basenameOf(locale) });
  let context: StaticHandlerContext | null = null;
  const response = (await inLocale(locale, () =>
    handler.query(request, {
      requestContext: testContext({ db }),
      generateMiddlewareResponse: async (query) => {
        const result = await query(request);
        if (result instanceof Response) return result;
        context = result;
        return new Response(null, { status: result.statusCode });
      },
    }),
  )) as Response;
  return { status: response.status, location: response.headers.get("location"), context };
}

/** One request to a resource route (no page), as the server answers the photo endpoints. */
async function sendToResource(db: DB, routes: Built[], request: Request): Promise<Response> {
  const handler = createStaticHandler(routes as RouteObject[]);
  return handler.queryRoute(request, {
    requestContext: testContext({ db }),
    generateMiddlewareResponse: async (queryRoute) => {
      const result = await queryRoute(request);
      return result instanceof Response ? result : Response.json(result);
    },
  });
}

function get(path: string, cookie?: string) {
  return new Request(`${TEST_SITE}${path}`, { headers: cookie ? { cookie } : {} });
}

function post(path: string, options: { cookie?: string; origin?: string | null; fields?: Record<string, string> }) {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
  if (options.origin !== null) headers.set("origin", options.origin ?? TEST_SITE);
  if (options.cookie) headers.set("cookie", options.cookie);
  return new Request(`${TEST_SITE}${path}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(options.fields ?? {}),
  });
}

/** Every page route under a layout, with a URL that reaches it (ids made up: every guard answers first). */
function below(routes: Built[], layoutId: string): { route: Built; path: string }[] {
  const layout = routes[0].children?.find((r) => r.id === layoutId);
  const found: { route: Built; path: string }[] = [];
  const walk = (route: Built, prefix: string) => {
    const path = [prefix, route.path]
      .filter(Boolean)
      .join("/")
      .replace(/:[a-z]+/gi, "1");
    found.push({ route, path: route.index ? `${path}?index` : path });
    for (const child of route.children ?? []) walk(child, path);
  };
  if (layout) walk(layout, "");
  return found.map(({ route, path }) => ({ route, path: `/${path}` }));
}

/** A report filed as a visitor files one, through the listing's report form. */
async function fileReport(db: DB, routes: Built[], listing: { id: number; slug: string }): Promise<string> {
  const fields = {
    listingId: String(listing.id),
    reporterName: "Reporter",
    reporterEmail: "reporter@example.com",
    reporterContact: "0771234567",
    reason: "spam",
    description: "",
  };
  expect((await send(db, routes, post(`/listing/${listing.slug}/report`, { fields }))).status).toBe(200);
  const row = await db.selectFrom("reports").select("id").where("listingId", "=", listing.id).executeTakeFirstOrThrow();
  return String(row.id);
}

const loginPath = (path: string) => `/login?redirectTo=${encodeURIComponent(path)}`;

describeEachDatabase("guards (ADR 025)", (ctx) => {
  it("sends a visitor to log in from every page and action under /dashboard and /admin, before any of them runs", async () => {
    const { db } = ctx();
    const routes = await appRoutes();
    const guarded = [...below(routes, "routes/dashboard"), ...below(routes, "routes/admin")];
    expect(guarded.map((g) => g.route.id)).toEqual(
      expect.arrayContaining(["routes/dashboard.settings", "routes/admin.reports.$id", "routes/dashboard._index"]),
    );
    for (const { route, path } of guarded) {
      if (route.loader) {
        const page = await send(db, routes, get(path));
        expect([page.status, page.location], path).toEqual([302, loginPath(path)]);
      }
      if (route.action) {
        const write = await send(db, routes, post(path, {}));
        expect([write.status, write.location], `POST ${path}`).toEqual([302, loginPath(path)]);
      }
    }
  });

  it("refuses a write that names no origin, or another site's, on every action under the layouts", async () => {
    const { db } = ctx();
    const { cookie } = await signedInAccount(db, "guard-mod", { role: "moderator" });
    const routes = await appRoutes();
    const actions = [...below(routes, "routes/dashboard"), ...below(routes, "routes/admin")].filter(
      (g) => g.route.action,
    );
    expect(actions.length).toBeGreaterThanOrEqual(5);
    for (const { path } of actions) {
      for (const origin of [null, "https://evil.example"]) {
        const refused = await send(db, routes, post(path, { cookie, origin }));
        expect(refused.status, `POST ${path} from ${origin}`).toBe(403);
      }
    }
  });

  it("refuses a signed-in owner every admin page with the admin 403 page, each loader refusing on its own", async () => {
    const { db } = ctx();
    const { cookie } = await signedInAccount(db, "guard-owner");
    const routes = await appRoutes();
    for (const { route, path } of below(routes, "routes/admin")) {
      if (!route.loader) continue;
      const page = await send(db, routes, get(path, cookie));
      expect(page.status, path).toBe(403);
      // The admin layout's own error page shows it (not the site's generic one), and no admin data went out.
      expect(Object.keys(page.context?.errors ?? {}), path).toEqual(["routes/admin"]);
      expect(page.context?.loaderData[route.id ?? ""], path).toBeUndefined();
    }
  });

  it("a dashboard action without a session answers as before: the login redirect back to it, nothing done", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, "guard-delete");
    const listing = await insertListing(db, owner, listingInput());
    const routes = await appRoutes();
    const path = `/dashboard/listings/${listing.id}/delete`;
    const answer = await send(db, routes, post(path, {}));
    expect([answer.status, answer.location]).toEqual([302, loginPath(path)]);
    const row = await db.selectFrom("listings").select("status").where("id", "=", listing.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("active");
  });

  it("a cross-origin POST to an admin action is refused with the form's own message, and changes nothing", async () => {
    const { db } = ctx();
    const { cookie } = await signedInAccount(db, "guard-act", { role: "moderator" });
    const owner = await insertTestOwner(db, "guard-reported");
    const listing = await insertListing(db, owner, listingInput());
    const routes = await appRoutes();
    const report = await fileReport(db, routes, listing);
    const path = `/admin/reports/${report}`;
    for (const origin of ["https://evil.example", null]) {
      const answer = await send(db, routes, post(path, { cookie, origin, fields: { intent: "hide", reason: "Fake" } }));
      expect(answer.status).toBe(403);
      expect(answer.context?.actionData?.["routes/admin.reports.$id"]).toEqual({
        intent: "hide",
        error: "admin.actions.errors.forbidden",
        reason: "",
      });
    }
    const row = await db.selectFrom("listings").select("status").where("id", "=", listing.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("active");
    // From our own page it goes through.
    const done = await send(db, routes, post(path, { cookie, fields: { intent: "hide", reason: "Fake" } }));
    expect([done.status, done.location]).toEqual([302, `/admin/reports/${report}?done=hide`]);
  });

  it("a new dashboard child route gets the guard by being under the layout", async () => {
    const { db } = ctx();
    const { cookie } = await signedInAccount(db, "guard-new");
    const ran: string[] = [];
    const child: Built = {
      id: "routes/dashboard.new-thing",
      path: "new-thing",
      loader: async (args) => {
        ran.push("loader");
        return { name: (await signedIn.user(args)).name };
      },
      action: async (args) => {
        const user = await signedIn.user(args);
        ran.push(`action by ${user.id}`);
        return { done: true };
      },
    };
    const routes = await appRoutes({ "routes/dashboard": [child] });

    // A visitor never reaches it: the layout's middleware sends them to log in first.
    expect(await send(db, routes, get("/dashboard/new-thing"))).toMatchObject({
      status: 302,
      location: loginPath("/dashboard/new-thing"),
    });
    expect((await send(db, routes, post("/dashboard/new-thing", {}))).status).toBe(302);
    expect(ran).toEqual([]);

    // Signed in, it runs, with the user the middleware judged.
    const page = await send(db, routes, get("/dashboard/new-thing", cookie));
    expect(page.status).toBe(200);
    expect(page.context?.loaderData["routes/dashboard.new-thing"]).toEqual({ name: "Kamala Perera" });

    // A write from another site (or none) gets no user, so nothing runs.
    for (const origin of [null, "https://evil.example"])
      expect((await send(db, routes, post("/dashboard/new-thing", { cookie, origin }))).status).toBe(403);
    expect(ran).toEqual(["loader"]);
    expect((await send(db, routes, post("/dashboard/new-thing", { cookie }))).status).toBe(200);
    expect(ran.filter((step) => step.startsWith("action"))).toHaveLength(1);
  });

  it("a new admin child route refuses an owner when it asks for its moderator", async () => {
    const { db } = ctx();
    const owner = await signedInAccount(db, "guard-admin-owner");
    const moderator = await signedInAccount(db, "guard-admin-mod", { role: "moderator" });
    const child: Built = {
      id: "routes/admin.new-thing",
      path: "new-thing",
      loader: async (args) => ({ by: (await moderatorsOnly.user(args)).id }),
    };
    const routes = await appRoutes({ "routes/admin": [child] });
    expect((await send(db, routes, get("/admin/new-thing"))).status).toBe(302);
    const refused = await send(db, routes, get("/admin/new-thing", owner.cookie));
    expect(refused.status).toBe(403);
    expect(refused.context?.loaderData["routes/admin.new-thing"]).toBeUndefined();
    const allowed = await send(db, routes, get("/admin/new-thing", moderator.cookie));
    expect(allowed.context?.loaderData["routes/admin.new-thing"]).toEqual({ by: moderator.owner.id });
  });

  it("the photo endpoints, beside the layout, still answer a visitor and another site in JSON", async () => {
    const { db } = ctx();
    const { cookie } = await signedInAccount(db, "guard-photos");
    const routes = await appRoutes();
    const anonymous = await sendToResource(db, routes, post("/dashboard/photos", {}));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("cache-control")).toBe("no-store");
    expect(await anonymous.json()).toEqual({ error: "Please log in to upload photos." });
    const foreign = await sendToResource(
      db,
      routes,
      post("/dashboard/photos/00000000-0000-0000-0000-000000000000/delete", { cookie, origin: "https://evil.example" }),
    );
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ error: expect.any(String) });
  });

  it("opens the dashboard and admin pages in the account's preferred language unless this browser chose one (ADR 036)", async () => {
    const { db } = ctx();
    const tamil = await signedInAccount(db, "guard-tamil");
    const moderator = await signedInAccount(db, "guard-tamil-mod", { role: "moderator" });
    await db
      .updateTable("users")
      .set({ locale: "ta" })
      .where("id", "in", [tamil.owner.id, moderator.owner.id])
      .execute();
    const routes = await appRoutes();

    // An English link (the nav, an email, a bookmark) opens the Tamil page, with its query.
    expect(await send(db, routes, get("/dashboard", tamil.cookie))).toMatchObject({
      status: 302,
      location: "/ta/dashboard",
    });
    expect(await send(db, routes, get("/dashboard/settings?done=profile", tamil.cookie))).toMatchObject({
      status: 302,
      location: "/ta/dashboard/settings?done=profile",
    });
    expect(await send(db, routes, get("/admin/audit", moderator.cookie))).toMatchObject({
      status: 302,
      location: "/ta/admin/audit",
    });
    expect(await send(db, routes, get("/si/admin", moderator.cookie))).toMatchObject({
      status: 302,
      location: "/ta/admin",
    });

    // Choosing a language in this browser (the switcher's cookie) wins over the account's.
    const english = `${tamil.cookie}; bodima_lang=en`;
    expect(await send(db, routes, get("/dashboard", english))).toMatchObject({ status: 200, location: null });
    expect(await send(db, routes, get("/ta/dashboard", english))).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
    // A cookie that names no language of ours is no choice.
    expect(await send(db, routes, get("/dashboard", `${tamil.cookie}; bodima_lang=fr`))).toMatchObject({
      status: 302,
      location: "/ta/dashboard",
    });

    // A form post is answered where it was sent, never redirected away from its action.
    const saved = await send(
      db,
      routes,
      post("/dashboard/settings", { cookie: tamil.cookie, fields: { name: "Kamala", phone: "" } }),
    );
    expect([saved.status, saved.location]).toEqual([200, null]);
    const row = await db.selectFrom("users").select("name").where("id", "=", tamil.owner.id).executeTakeFirstOrThrow();
    expect(row.name).toBe("Kamala");
    // Saving another language in Settings opens Settings in it, saying it saved; not when this
    // browser chose a language (that choice still wins).
    const sinhala = await send(
      db,
      routes,
      post("/ta/dashboard/settings", { cookie: tamil.cookie, fields: { name: "Kamala", phone: "", locale: "si" } }),
    );
    expect(sinhala.status).toBeGreaterThanOrEqual(300);
    expect(sinhala.location).toBe(`${TEST_SITE}/si/dashboard/settings?done=profile`);
    const done = await send(db, routes, get("/si/dashboard/settings?done=profile", tamil.cookie));
    expect(done.context?.loaderData["routes/dashboard.settings"]).toMatchObject({ done: "profile" });
    const chosen = await send(
      db,
      routes,
      post("/dashboard/settings", { cookie: english, fields: { name: "Kamala", phone: "", locale: "ta" } }),
    );
    expect([chosen.status, chosen.location]).toEqual([200, null]);

    // A visitor logs in in the page's language; an English account's dashboard stays English.
    expect(await send(db, routes, get("/dashboard"))).toMatchObject({ status: 302, location: loginPath("/dashboard") });
    const englishOwner = await signedInAccount(db, "guard-english");
    expect(await send(db, routes, get("/dashboard", englishOwner.cookie))).toMatchObject({
      status: 200,
      location: null,
    });
    expect(await send(db, routes, get("/ta/dashboard", englishOwner.cookie))).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
  });

  it("reads the session once per request, however many ask (root, middleware, layout, page)", async () => {
    const { db } = ctx();
    const { cookie } = await signedInAccount(db, "guard-once");
    const routes = await appRoutes();
    const auth = getAuth(testContext({ db }).get(requestContext));
    const reads = vi.spyOn(auth.api, "getSession");
    try {
      const page = await send(db, routes, get("/dashboard/settings", cookie));
      expect(page.status).toBe(200);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });
});
