// The layers of Bodima: which folder is which layer and what each may import
// (inside app/; packages are not limited here). docs/decisions/024-layers.md says
// why. `npm run lint:layers` checks it; tests/integration/layers.test.ts proves that
// it reads every module and refuses forbidden imports.
//
// routes      app/routes/, app/root.tsx, app/routes.ts, app/entry.server.tsx
//             Screens and resources: parse input, authorise, call a model or a
//             presenter, return.
//             May import any layer; the database only as a type (no queries).
//             Nothing but routes and tests imports a route.
// presenters  app/pages/, app/api/
//             Turn model results into what a page or the JSON API sends: texts,
//             links, head tags, action answers. Server code.
//             May import models, schemas, shared; db and auth only as types.
// components  app/components/ (primitives in app/components/ui/)
//             React components: draw what they are given; they run in the browser.
//             May import components, schemas, shared; never a *.server module,
//             not even for a type. ui/ may import only ui/ and shared.
// auth        app/auth/, except password-hash.server.ts (infra)
//             better-auth wired to our database and mail, session helpers, the
//             common-password check.
//             May import models, infra, db, schemas, shared, and the request
//             context in app/services.server.ts.
// wiring      app/services.server.ts, app/jobs/, app/mail/, app/seed/, app/bench/
//             Start-up and background work: the long-lived services, timed jobs,
//             the mail sender, demo and synthetic data, benchmark shapes.
//             May import models, infra, db, schemas, shared.
// models      app/models/
//             The rules: listings, photos, reports, accounts, the outbox.
//             May import db, infra, schemas, shared except i18n: models speak
//             in message keys (app/schemas/message.ts), never in sentences.
// infra       app/cache/, app/storage/, app/limits/, app/security/, app/sms/,
//             app/env.server.ts, app/auth/password-hash.server.ts
//             Page cache, photo storage, rate limits, request security, SMS
//             gateways, configuration, password hashing: interfaces and drivers.
//             May import db, schemas, shared.
// db          app/db/
//             Kysely, the table types, migrations, dialect-specific SQL.
//             May import lib, and the listing status union as a type (the
//             column's type, ADR 063); migrations import nothing of the app.
// schemas     app/schemas/
//             zod schemas, and view types (*-view.ts, types only) that models and
//             presenters fill and components draw; shared by browser and server.
//             May import shared; never a *.server module.
// shared      app/directory/, app/lib/, app/i18n/
//             The university directory, small helpers, message catalogues.
//             May import shared only.
//
// Tests beside the code (*.test.ts, *.test.tsx), scripts/, tests/ and server.ts
// may import any layer. No module anywhere imports itself through others.

const ROUTES = "^app/(routes/|root[.]tsx$|routes[.]ts$|entry[.]server[.]tsx$)";
const PRESENTERS = "^app/(pages|api)/";
const COMPONENTS = "^app/components/";
const UI = "^app/components/ui/";
const AUTH = "^app/auth/(?!password-hash[.]server[.]ts$)";
const WIRING = "^app/(services[.]server[.]ts$|jobs/|mail/|seed/|bench/)";
const MODELS = "^app/models/";
const INFRA = "^app/(cache/|storage/|limits/|security/|sms/|env[.]server[.]ts$|auth/password-hash[.]server[.]ts$)";
const DB = "^app/db/";
const SCHEMAS = "^app/schemas/";
const LISTING_STATUS = "^app/schemas/listing-status[.]ts$";
const SHARED = "^app/(directory|lib|i18n)/";

const TESTS = "[.]test[.]tsx?$";
const APP = "^app/";

/** A layer that may import only `allowed` (and itself) inside app/. */
function layer(name, comment, from, allowed) {
  return {
    name,
    comment,
    severity: "error",
    from: { path: from, pathNot: TESTS },
    to: { path: APP, pathNot: [from, ...allowed] },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: "no-circular",
      comment: "No module imports itself through others, not even for types: a circle makes two modules one.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "resolvable",
      comment:
        "Every import of our own code resolves to a file; an import that does not would slip past every rule here.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true, path: "^([~.]/|[.][.]/)", pathNot: "/[+]types/" },
    },
    {
      name: "routes-reach-the-database-through-models",
      comment: "Routes stay thin (ADR 024): no query builder, only its type.",
      severity: "error",
      from: { path: ROUTES, pathNot: TESTS },
      to: { path: DB, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "nothing-imports-routes",
      comment: "Routes are the top layer: only routes.ts, other routes and tests import them.",
      severity: "error",
      from: { path: APP, pathNot: [ROUTES, TESTS] },
      to: { path: ROUTES },
    },
    layer(
      "presenters",
      "Presenters (app/pages/, app/api/) use models, schemas and the shared helpers; never components, routes, infra or wiring.",
      PRESENTERS,
      [MODELS, SCHEMAS, SHARED, DB, AUTH],
    ),
    {
      name: "presenters-take-db-and-user-as-types",
      comment:
        "Presenters pass `db` on to models and read the user the route found: types only, no queries, no sessions.",
      severity: "error",
      from: { path: PRESENTERS, pathNot: TESTS },
      to: { path: [DB, AUTH], dependencyTypesNot: ["type-only"] },
    },
    layer(
      "components",
      "Components draw what they are given: they may import components, schemas (with the view types), the directory, lib and i18n; never models, db, auth, infra or presenters.",
      COMPONENTS,
      [SCHEMAS, SHARED],
    ),
    {
      name: "components-no-server-code",
      comment: "Components run in the browser: no *.server module, not even for a type.",
      severity: "error",
      from: { path: COMPONENTS, pathNot: TESTS },
      to: { path: "[.]server[.]tsx?$" },
    },
    layer(
      "ui-primitives",
      "app/components/ui/ holds primitives (buttons, fields, icons): they use lib and i18n, never the app's other components.",
      UI,
      [SHARED],
    ),
    layer(
      "auth",
      "auth/ sits on models (mail through the outbox), infra and the request context in services.server.ts.",
      AUTH,
      [MODELS, INFRA, DB, SCHEMAS, SHARED, "^app/services[.]server[.]ts$"],
    ),
    layer(
      "wiring",
      "Start-up and background work call models and infra; they never import screens, presenters, components or auth.",
      WIRING,
      [MODELS, INFRA, DB, SCHEMAS, SHARED],
    ),
    layer(
      "models",
      "Models use the database, infra, schemas and the shared helpers; never routes, presenters, components, auth or wiring.",
      MODELS,
      [DB, INFRA, SCHEMAS, SHARED],
    ),
    {
      name: "models-speak-in-keys",
      comment:
        "Models never import i18n, not even for a type: they store and return message keys and values (app/schemas/message.ts), and whoever shows or sends the text translates it in the reader's language (ADR 028).",
      severity: "error",
      from: { path: MODELS, pathNot: TESTS },
      to: { path: "^app/i18n/" },
    },
    layer(
      "infra",
      "Infra (cache, storage, limits, security, configuration) sits below the models: it never imports them.",
      INFRA,
      [DB, SCHEMAS, SHARED],
    ),
    layer("db", "The database layer imports nothing of the app but lib and the listing status type.", DB, [
      "^app/lib/",
      LISTING_STATUS,
    ]),
    {
      name: "db-takes-the-status-as-a-type",
      comment:
        "listings.status is typed as the union app/schemas/listing-status.ts defines (ADR 063), so a literal that is no status fails to compile; the table types take it as a type only.",
      severity: "error",
      from: { path: DB, pathNot: TESTS },
      to: { path: LISTING_STATUS, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "migrations-are-frozen",
      comment: "Migrations never import app code (ADR 024): what they do must not change later.",
      severity: "error",
      from: { path: "^app/db/migrations/" },
      to: { path: APP, pathNot: "^app/db/migrations/" },
    },
    layer(
      "schemas",
      "Schemas and view types are shared with the browser: only the directory, lib and i18n below them; never db or models.",
      SCHEMAS,
      [SHARED],
    ),
    {
      name: "schemas-no-server-code",
      comment: "Schemas run in the browser: no *.server module.",
      severity: "error",
      from: { path: SCHEMAS },
      to: { path: "[.]server[.]tsx?$" },
    },
    layer("shared", "The directory, lib and i18n import only each other.", SHARED, []),
    {
      name: "app-never-imports-tests",
      comment: "Test helpers stay out of the app (tests beside the code may use them).",
      severity: "error",
      from: { path: APP, pathNot: TESTS },
      to: { path: "^tests/" },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript API, so dependency-cruiser's default TypeScript parser finds
    // nothing ("0 modules cruised") and every rule passes; swc reads TypeScript and JSX without it.
    parser: "swc",
    // Only for the `~/` alias (paths); dependency-cruiser reads the file itself.
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|[.]react-router)/" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    moduleSystems: ["es6", "cjs"],
    reporterOptions: { text: { highlightFocused: true } },
  },
};
