import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { PUBLIC_PAGE_STATUSES, statusIn } from "~/schemas/listing-status";
import type { OwnerListingStatus } from "~/schemas/my-listing-view";
import { MyAdActions } from "./my-ads-actions";

function actionsFor(status: OwnerListingStatus): string {
  const ad = { id: 7, slug: "quiet-room-7", title: "Quiet room", status };
  const Stub = createRoutesStub([{ path: "/dashboard", Component: () => <MyAdActions ad={ad} /> }]);
  return renderToString(<Stub initialEntries={["/dashboard"]} />);
}

const STATUSES: OwnerListingStatus[] = ["active", "expired", "let", "pending", "hidden"];

describe("My Ads actions", () => {
  // The listing page answers 404 for any status outside PUBLIC_PAGE_STATUSES (app/models/listing.server.ts).
  it.each(STATUSES)("links a %s ad to its page only when the public page exists", (status) => {
    const html = actionsFor(status);
    expect(html.includes('href="/listing/quiet-room-7"')).toBe(statusIn(PUBLIC_PAGE_STATUSES, status));
  });
});
