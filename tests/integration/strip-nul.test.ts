import { sql } from "kysely";
import { expect, it } from "vitest";
import { findListingBySlug } from "../../app/models/listing.server";
import { searchListings } from "../../app/models/listing-search.server";
import { describeEachDatabase } from "../test-db";

describeEachDatabase("NUL bytes in input", (ctx) => {
  it("are removed from parameters instead of failing the query", async () => {
    const { db } = ctx();
    const now = new Date().toISOString();
    await db
      .insertInto("contact_messages")
      .values({
        id: "m1",
        name: "A\0B",
        email: "a@example.com",
        subject: "Other",
        message: "hi\0",
        status: "new",
        createdAt: now,
      })
      .execute();
    const row = await db
      .selectFrom("contact_messages")
      .select(["name", "message"])
      .where("id", "=", "m1")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: "AB", message: "hi" });
    expect(await findListingBySlug(db, "\0")).toBeNull();
    const raw = await sql<{ v: string }>`select ${"x\0y"} as v`.execute(db);
    expect(raw.rows[0].v).toBe("xy");
    await expect(
      searchListings(db, { location: "\0", search: "\0room" }, { page: 1, limit: 10 }),
    ).resolves.toBeDefined();
  });
});
