import { expect, it } from "vitest";
import { emailModeratorsAboutReport } from "../../app/mail/report-mails.server";
import { insertListing } from "../../app/models/listing.server";
import { countIndependentReports, createReport } from "../../app/models/report.server";
import { insertTestOwner, listingInput, reportInput } from "../factories";
import { TEST_SITE } from "../request-context";
import { describeEachDatabase } from "../test-db";

// Moderators' mail in each moderator's preferred language (ADR 069). A database of its
// own: the moderators made here would otherwise receive other tests' mail.

describeEachDatabase("moderators' mail languages", (ctx) => {
  it("writes each moderator's copy of a new report in that moderator's language", async () => {
    const { db } = ctx();
    const sinhala = await insertTestOwner(db, "mod-si");
    const english = await insertTestOwner(db, "mod-en");
    await db.updateTable("users").set({ role: "moderator", locale: "si" }).where("id", "=", sinhala.id).execute();
    await db.updateTable("users").set({ role: "moderator" }).where("id", "=", english.id).execute();
    const owner = await insertTestOwner(db, "owner-mail");
    const listing = await insertListing(db, owner, listingInput({ title: "Reported room" }));
    const created = await createReport(db, reportInput(listing.id), {
      autoHideAt: 5,
      reporter: { originGroup: "192.0.2.0/24", visitorKey: "v-mail", userId: null },
    });
    if (!created.ok) throw new Error("not reported");
    const site = { supportEmail: "support@bodima.test", siteName: "Bodima", siteUrl: TEST_SITE };
    const ids = await emailModeratorsAboutReport(db, site, created);
    expect(ids).toHaveLength(2);
    const mails = await db.selectFrom("outbox").select(["to", "subject"]).where("id", "in", ids).execute();
    const to = (email: string) => mails.find((m) => m.to === email)?.subject ?? "";
    expect(to(sinhala.email)).toContain("ගැන වාර්තාවක්");
    expect(to(english.email)).toContain("Report on ad #");
  });
});

describeEachDatabase("the reasons a notice gives", (ctx) => {
  it("come in the report form's order, whatever order (or millisecond) the reports came in", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, "owner-order");
    const listing = await insertListing(db, owner, listingInput({ title: "Ordered room" }));
    const at = new Date();
    for (const [i, reason] of ["safety-concerns", "fake-listing"].entries())
      await createReport(db, reportInput(listing.id, { reason: reason as "spam" }), {
        autoHideAt: 10,
        reporter: { originGroup: `198.51.100.${i}/32`, visitorKey: `v-order-${i}`, userId: null },
        now: new Date(at.getTime() + i),
      });
    const { reasons } = await countIndependentReports(db, listing.id);
    expect(reasons).toEqual(["fake-listing", "safety-concerns"]);
  });
});
