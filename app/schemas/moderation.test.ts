import { describe, expect, it } from "vitest";
import { parseHeldDecisionForm, REASON_MAX_LENGTH } from "./moderation";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("parseHeldDecisionForm", () => {
  it("approves with or without a reason; rejecting needs one", () => {
    expect(parseHeldDecisionForm(form({ intent: "approve", listingId: "12" }))).toEqual({
      ok: true,
      intent: "approve",
      listingId: 12,
      reason: null,
    });
    expect(parseHeldDecisionForm(form({ intent: "reject", listingId: "12", reason: "   " }))).toMatchObject({
      ok: false,
      intent: "reject",
      error: "admin.actions.errors.reasonRequired",
    });
    expect(parseHeldDecisionForm(form({ intent: "reject", listingId: "12", reason: " Copied photos " }))).toEqual({
      ok: true,
      intent: "reject",
      listingId: 12,
      reason: "Copied photos",
    });
  });

  it("refuses an unknown action, a missing or malformed listing number and a reason too long", () => {
    expect(parseHeldDecisionForm(form({ intent: "hide", listingId: "12" }))).toMatchObject({
      ok: false,
      error: "admin.actions.errors.unknownAction",
    });
    expect(parseHeldDecisionForm(form({ intent: "approve", listingId: "12abc" }))).toMatchObject({
      ok: false,
      listingId: null,
      error: "admin.actions.errors.notFound",
    });
    expect(
      parseHeldDecisionForm(form({ intent: "reject", listingId: "3", reason: "x".repeat(REASON_MAX_LENGTH + 1) })),
    ).toMatchObject({ ok: false, error: "admin.actions.errors.reasonTooLong" });
  });
});
