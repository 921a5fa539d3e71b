import { describe, expect, it } from "vitest";
import { parseReportForm, REPORT_REASONS } from "./report";

const form = (values: Record<string, string>) => new URLSearchParams(values) as unknown as FormData;

const valid = {
  listingId: "1004",
  reporterName: "Nimal Perera",
  reporterEmail: "nimal@example.com",
  reporterContact: "0771234567",
  reason: "spam",
  description: "",
};

describe("parseReportForm", () => {
  it("accepts a complete report, trimmed, with the description optional", () => {
    const result = parseReportForm(form({ ...valid, reporterName: "  Nimal Perera ", listingId: " 1004 " }));
    expect(result).toMatchObject({ ok: true, data: valid });
  });

  it("gives one message per field, in the spec's order, and reads a missing field as empty", () => {
    const result = parseReportForm(new FormData());
    expect(result.ok ? null : Object.keys(result.errors)).toEqual([
      "listingId",
      "reporterName",
      "reporterEmail",
      "reporterContact",
      "reason",
    ]);
    expect(result.ok ? null : result.first).toBe("report.errors.listingIdRequired");
  });

  it("knows the spec's seven reasons, 'Asked for money before a viewing' (ADR 077), and nothing else", () => {
    const spec = "fake-listing inappropriate-content spam wrong-information safety-concerns harassment other";
    expect(REPORT_REASONS.filter((reason) => reason !== "money-before-viewing")).toEqual(spec.split(" "));
    expect(REPORT_REASONS[1]).toBe("money-before-viewing");
    expect(REPORT_REASONS).toHaveLength(8);
    for (const reason of REPORT_REASONS) expect(parseReportForm(form({ ...valid, reason })).ok).toBe(true);
    const odd = parseReportForm(form({ ...valid, reason: "Spam" }));
    expect(odd.ok ? null : odd.errors).toEqual({ reason: "report.errors.reasonRequired" });
  });

  it("refuses a listing id that is not a number, and an email without a domain", () => {
    const result = parseReportForm(form({ ...valid, listingId: "1004 or 1=1", reporterEmail: "nimal@" }));
    expect(result.ok ? null : result.errors).toEqual({
      listingId: "report.errors.listingNotFound",
      reporterEmail: "report.errors.emailInvalid",
    });
  });
});
