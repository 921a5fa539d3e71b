import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { LISTING_STATUSES, type ListingStatus, PUBLIC_PAGE_STATUSES, statusIn } from "~/schemas/listing-status";
import type { ReportDetail } from "~/schemas/moderation-view";
import AdminReport from "./admin.reports.$id";

function detail(status: ListingStatus): ReportDetail {
  const at = "2026-11-20T10:00:00.000Z";
  return {
    report: {
      id: "r-1",
      reason: "fake-listing",
      description: null,
      status: "pending",
      reporterName: "Nimal",
      reporterEmail: "nimal@example.com",
      reporterContact: "",
      createdAt: at,
      updatedAt: at,
    },
    listing: {
      id: 42,
      slug: "quiet-room-42",
      title: "Quiet room",
      status,
      hiddenBy: status === "hidden" ? "moderator" : null,
      hiddenReason: null,
      expiresAt: "2026-12-20T10:00:00.000Z",
    },
    owner: null,
    otherReports: [],
  };
}

function render(status: ListingStatus): string {
  const Stub = createRoutesStub([
    { id: "routes/admin.reports.$id", path: "/admin/reports/:id", Component: AdminReport as never },
  ]);
  return renderToString(
    <Stub
      initialEntries={["/admin/reports/r-1"]}
      hydrationData={{ loaderData: { "routes/admin.reports.$id": detail(status) } }}
    />,
  );
}

describe("a report's page for moderators", () => {
  // The listing page answers 404 for any status outside PUBLIC_PAGE_STATUSES (app/models/listing.server.ts).
  it.each(LISTING_STATUSES)("links a %s listing to its public page only when that page exists", (status) => {
    expect(render(status).includes('href="/listing/quiet-room-42"')).toBe(statusIn(PUBLIC_PAGE_STATUSES, status));
  });
});
