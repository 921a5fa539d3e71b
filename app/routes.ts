import { index, type RouteConfig, route } from "@react-router/dev/routes";

// The one URL map. Mirrors the product specification's route table, plus our own
// resource routes (API, sitemap, photos).
export default [
  index("routes/home.tsx"),
  route("browse", "routes/browse.tsx", { id: "browse" }),
  route("search/:location", "routes/browse.tsx", { id: "browse-location" }),
  route("search/:location/:university", "routes/browse.tsx", { id: "browse-location-university" }),
  route("university/:university", "routes/browse.tsx", { id: "browse-university" }),
  route("city/:city", "routes/browse.tsx", { id: "browse-city" }),
  route("browse/map", "routes/browse.map.tsx"),
  route("listing/:slug", "routes/listing.tsx"),
  route("listing/:slug/report", "routes/listing.report.tsx"),
  route("listing/:slug/photos", "routes/listing.photos.tsx"),
  route("listing/:slug/already-let", "routes/listing.already-let.tsx"),
  // Counts a tap on the page's 'Call Now', WhatsApp or Viber link: ping or beacon (ADR 089).
  route("listing/:slug/contact/:kind", "routes/listing.contact.$kind.ts"),
  route("shortlist", "routes/shortlist.tsx"),
  route("s/:code", "routes/shared-shortlist.tsx"),
  route("availability/:token", "routes/availability.$token.tsx"),
  route("alerts/new", "routes/alerts.new.tsx"),
  route("alerts/confirm/:token", "routes/alerts.confirm.$token.tsx"),
  route("alerts/stop/:token", "routes/alerts.stop.$token.tsx"),
  route("alerts/unsubscribe/:token", "routes/alerts.unsubscribe.$token.ts"),
  route("alerts/manage/:token", "routes/alerts.manage.$token.tsx"),
  route("old-browse", "routes/old-browse.tsx"),
  route("login", "routes/login.tsx"),
  route("signup", "routes/signup.tsx"),
  route("logout", "routes/logout.ts"),
  route("reset-password", "routes/reset-password.tsx"),
  route("confirm-email", "routes/confirm-email.tsx"),
  // Every route under the dashboard and admin layouts is guarded by their middleware (ADR 025).
  route("dashboard", "routes/dashboard.tsx", [
    // My Ads is the layout under the post and edit dialogs (real URLs, ADR 009).
    route("", "routes/dashboard._index.tsx", [
      route("listings/new", "routes/dashboard.listings.new.tsx"),
      route("listings/:id/edit", "routes/dashboard.listings.$id.edit.tsx"),
    ]),
    route("settings", "routes/dashboard.settings.tsx"),
    route("confirm-email", "routes/dashboard.confirm-email.ts"),
    route("listings/:id/delete", "routes/dashboard.listings.$id.delete.tsx"),
    route("listings/:id/renew", "routes/dashboard.listings.$id.renew.ts"),
    route("listings/:id/availability", "routes/dashboard.listings.$id.availability.ts"),
  ]),
  // The photo picker's JSON endpoints answer a visitor with a 401 in JSON, not with the
  // dashboard's login redirect: beside the layout, judged by the same guard (ADR 025).
  route("dashboard/photos", "routes/dashboard.photos.ts"),
  route("dashboard/photos/:id/delete", "routes/dashboard.photos.$id.delete.ts"),
  // The post form's 'Send code' and 'Confirm' for the contact phone (ADR 076): JSON, or back to My Ads.
  route("dashboard/phone-code", "routes/dashboard.phone-code.ts"),
  route("admin", "routes/admin.tsx", [
    index("routes/admin._index.tsx"),
    route("reports/:id", "routes/admin.reports.$id.tsx"),
    route("held", "routes/admin.held.tsx"),
    route("audit", "routes/admin.audit.tsx"),
  ]),
  route("about", "routes/about.tsx"),
  route("contact", "routes/contact.tsx"),
  route("privacy", "routes/privacy.tsx"),
  route("terms", "routes/terms.tsx"),

  // Resource routes
  route("photos/:key", "routes/photos.$key.ts"),
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
  route("robots.txt", "routes/robots[.]txt.ts"),
  route("language/:locale", "routes/language.$locale.ts"),
  route("data-saver", "routes/data-saver.ts"),
  route("api/listings", "routes/api.listings.ts"),
  route("api/listings/:idOrSlug", "routes/api.listings.$idOrSlug.ts"),
  route("api/universities", "routes/api.universities.ts"),
  route("api/my/listings/:id/insights", "routes/api.my.listings.$id.insights.ts"),
  route("api/openapi.json", "routes/api.openapi[.]json.ts"),
  // Compatible aliases of the original cloud-function paths.
  route("getAdsForSEO", "routes/api.listings.ts", { id: "compat-getAdsForSEO" }),
  route("getAdForSEO/:idOrSlug", "routes/api.listings.$idOrSlug.ts", { id: "compat-getAdForSEO" }),
  route("getAdsByUniversity/:university", "routes/api.listings.ts", { id: "compat-getAdsByUniversity" }),
  route("updateViewCount", "routes/api.update-view-count.ts"),

  route("dev/outbox", "routes/dev.outbox.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
