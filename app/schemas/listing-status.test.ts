import { describe, expect, it } from "vitest";
import {
  DELETED_STATUS,
  HIDDEN_BY_SUSPENSION,
  HIDDEN_STATUS,
  LETTABLE_STATUSES,
  LISTED_STATUS,
  LISTING_STATUSES,
  PENDING_STATUS,
  PUBLIC_PAGE_STATUSES,
  PUBLIC_PHOTO_STATUSES,
  REPORTABLE_STATUSES,
  RESTORABLE_STATUSES,
  RESTORED_BY_DEFAULT,
} from "./listing-status";

// The relations ADR 063 states between the named sets, so a later edit of one list cannot break them.
describe("listing status sets", () => {
  it("show photos, take reports and marks of 'let' exactly where the public page is", () => {
    expect(PUBLIC_PHOTO_STATUSES).toEqual(PUBLIC_PAGE_STATUSES);
    expect(REPORTABLE_STATUSES).toEqual(PUBLIC_PAGE_STATUSES);
    expect(LETTABLE_STATUSES).toEqual(PUBLIC_PAGE_STATUSES);
    expect(PUBLIC_PAGE_STATUSES).toContain(LISTED_STATUS);
    for (const closed of [PENDING_STATUS, HIDDEN_STATUS, DELETED_STATUS])
      expect(PUBLIC_PAGE_STATUSES).not.toContain(closed);
  });

  it("let a suspension hide every state but hidden and deleted, and a restore return to one of them", () => {
    expect([...HIDDEN_BY_SUSPENSION].sort()).toEqual(
      LISTING_STATUSES.filter((s) => s !== HIDDEN_STATUS && s !== DELETED_STATUS).sort(),
    );
    expect(RESTORABLE_STATUSES).toEqual(HIDDEN_BY_SUSPENSION);
    expect(RESTORABLE_STATUSES).toContain(RESTORED_BY_DEFAULT);
  });
});
