import fc from "fast-check";
import { expect, it } from "vitest";
import * as adminIndex from "../../app/routes/admin._index";
import * as adminReport from "../../app/routes/admin.reports.$id";
import * as report from "../../app/routes/listing.report";
import {
  body,
  call,
  expectNo5xx,
  fuzzFixtures,
  get,
  type Handler,
  inputs,
  NO_LIMITS,
  overrides,
  post,
  received,
  settingsFor,
  stored,
  text,
  unique,
} from "../fuzz";
import { testContext } from "../request-context";
import { describeEachDatabase } from "../test-db";

describeEachDatabase("fuzz: hostile reports and moderators' input never break the server", (ctx) => {
  const { ready: fx, context } = fuzzFixtures(ctx);
  const saved = { report: 0 };

  it("report: no 5xx; a report's description reads back exactly", async () => {
    let runs = 0;
    const slugs = fc.oneof({ weight: 4, arbitrary: fc.constant("own") }, { weight: 1, arbitrary: text });
    await fc.assert(
      fc.asyncProperty(
        inputs(
          ["listingId", "reporterName", "reporterEmail", "reporterContact", "reason", "description", "website"],
          ["description", "reporterName"],
        ),
        slugs,
        async (o, slug) => {
          const reporterEmail = `${unique("r")}@example.com`;
          const base = {
            listingId: String(fx().listing.id),
            reporterName: "Reporter",
            reporterEmail,
            reporterContact: "0771234567",
            reason: "spam",
            description: "",
            website: "",
          };
          const param = slug === "own" ? fx().listing.slug : slug;
          const request = post(
            `/listing/${encodeURIComponent(param)}/report`,
            body(base, { ...o, values: { ...o.values, reporterEmail } }),
          );
          const [description, name] = [await received(request, "description"), await received(request, "reporterName")];
          // Each run from a network of its own: one network may file only 3 reports a day on a listing (ADR 017).
          const fromOwnNetwork = testContext({
            db: ctx().db,
            storage: fx().storage,
            limits: NO_LIMITS,
            clientIp: `10.77.${++runs % 250}.1`,
          });
          const outcome = await call(report.action as Handler, request, fromOwnNetwork, { slug: param });
          expectNo5xx(outcome, "report");
          expectNo5xx(
            await call(report.loader as Handler, get(`/listing/${encodeURIComponent(param)}/report`), context(), {
              slug: param,
            }),
            "report loader",
          );
          const row = await ctx()
            .db.selectFrom("reports")
            .selectAll()
            .where("reporterEmail", "=", reporterEmail)
            .executeTakeFirst();
          if (row) {
            saved.report++;
            // An empty description is stored as "none given" (null).
            expect(row.description ?? "").toBe(stored(description!));
            expect(row.reporterName).toBe(stored(name!));
          } else {
            expect(
              outcome.status === 400 || outcome.status === 404 || outcome.body.status === "sent",
              JSON.stringify(outcome.body),
            ).toBe(true);
          }
          // Reports from many reporters would hide the shared listing; keep it public.
          await ctx()
            .db.updateTable("reports")
            .set({ status: "dismissed" })
            .where("reporterEmail", "=", reporterEmail)
            .execute();
          await ctx()
            .db.updateTable("listings")
            .set({ status: "active", hiddenBy: null })
            .where("id", "=", fx().listing.id)
            .execute();
        },
      ),
      settingsFor(),
    );
    expect(saved.report).toBeGreaterThan(3);
  });

  it("admin: report actions and queue filters answer 4xx to nonsense", async () => {
    const ids = fc.oneof(fc.constant("own"), text);
    await fc.assert(
      fc.asyncProperty(
        overrides(["intent", "reason"]),
        ids,
        fc.constantFrom("moderator", "owner"),
        fc.webQueryParameters(),
        async (o, id, who, query) => {
          const cookie = who === "moderator" ? fx().moderator.cookie : fx().owner.cookie;
          const param = id === "own" ? fx().reportId : id;
          const base = { intent: "review", reason: "Looked at it" };
          const outcome = await call(
            adminReport.action as Handler,
            post(`/admin/reports/${encodeURIComponent(param)}`, body(base, o), cookie),
            context(),
            { id: param },
          );
          expectNo5xx(outcome, "admin action");
          expectNo5xx(
            await call(
              adminReport.loader as Handler,
              get(`/admin/reports/${encodeURIComponent(param)}`, cookie),
              context(),
              { id: param },
            ),
            "admin report loader",
          );
          expectNo5xx(
            await call(adminIndex.loader as Handler, get(`/admin?${query}`, cookie), context()),
            "admin queue",
          );
          // Whatever a moderator did to it, the shared listing and owner stay usable.
          await ctx()
            .db.updateTable("listings")
            .set({ status: "active", hiddenBy: null })
            .where("id", "=", fx().listing.id)
            .execute();
          await ctx().db.updateTable("users").set({ status: "active" }).where("id", "=", fx().owner.id).execute();
        },
      ),
      settingsFor(),
    );
  });
});
