import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../test-db";

describeEachDatabase("migrations", (ctx) => {
  it("creates the listings table with ad numbers starting at 1001", async () => {
    const { db } = ctx();
    const now = new Date().toISOString();
    await db
      .insertInto("users")
      .values({
        id: "u1",
        name: "A",
        email: "a@example.com",
        emailVerified: 0,
        image: null,
        phone: "",
        role: "owner",
        status: "active",
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const row = await db
      .insertInto("listings")
      .values({
        slug: "tmp",
        title: "Room near Moratuwa",
        description: "d",
        price: 15000,
        keymoneyFee: null,
        location: null,
        university: "University of Moratuwa",
        faculty: "Main Campus",
        city: "moratuwa",
        propertyType: "single",
        gender: "any",
        amenities: "[]",
        userId: "u1",
        userEmail: "a@example.com",
        contactName: "A",
        contactPhone: "0771234567",
        status: "active",
        lastViewed: null,
        expiresAt: now,
        hiddenReason: null,
        createdAt: now,
        updatedAt: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(row.id).toBe(1001);
    expect(sql).toBeDefined();
  });
});
