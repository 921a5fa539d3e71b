import { expect, it } from "vitest";
import { describeEachDatabase } from "~/../tests/test-db";
import { saveContactMessage } from "./contact.server";

describeEachDatabase("saveContactMessage", (ctx) => {
  it("stores the message as new, with its time, and returns its id", async () => {
    const { db } = ctx();
    const now = new Date("2026-11-22T08:30:00.000Z");
    const input = {
      name: "Ayesha Fernando",
      email: "ayesha@example.com",
      subject: "Report an Issue" as const,
      message: "About listing #1004: the phone number is wrong. Unicode: සිංහල தமிழ்",
    };
    const { id, createdAt } = await saveContactMessage(db, input, now);
    const row = await db.selectFrom("contact_messages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toEqual({ id, ...input, status: "new", createdAt: "2026-11-22T08:30:00.000Z" });
    expect(createdAt).toBe("2026-11-22T08:30:00.000Z");
  });

  it("keeps every message apart (no upsert on the same sender)", async () => {
    const { db } = ctx();
    const input = { name: "Same", email: "same@example.com", subject: "Other" as const, message: "Hi" };
    const a = await saveContactMessage(db, input);
    const b = await saveContactMessage(db, input);
    expect(a.id).not.toBe(b.id);
    const rows = await db.selectFrom("contact_messages").select("id").where("email", "=", "same@example.com").execute();
    expect(rows).toHaveLength(2);
  });
});
