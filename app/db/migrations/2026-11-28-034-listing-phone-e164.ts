import type { Kysely } from "kysely";

// Frozen migration. Listings keep the contact phone as typed (what the page
// shows); `contactPhoneE164` beside it is the same number in E.164, so ads can
// be counted per phone across accounts (ADR 076) with an index; null when the
// phone is no Sri Lankan number. Existing rows are filled from a copy of the
// reading in app/lib/phone.ts as it was on this day (migrations import nothing
// of the app), one update per distinct typed phone.
function e164(typed: string): string | null {
  const compact = typed.replace(/\(0\)/g, "").replace(/[\s().-]/g, "");
  const match = /^(?:\+94|0094|94|0)([1-9]\d{8})$/.exec(compact);
  return match ? `+94${match[1]}` : null;
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").addColumn("contactPhoneE164", "text").execute();
  await db.schema
    .createIndex("listings_phone_e164_idx")
    .on("listings")
    .columns(["contactPhoneE164", "status"])
    .execute();
  const typed = await db.selectFrom("listings").select("contactPhone").distinct().execute();
  for (const { contactPhone } of typed as { contactPhone: string }[]) {
    const value = e164(contactPhone);
    if (value)
      await db
        .updateTable("listings")
        .set({ contactPhoneE164: value })
        .where("contactPhone", "=", contactPhone)
        .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("listings_phone_e164_idx").execute();
  await db.schema.alterTable("listings").dropColumn("contactPhoneE164").execute();
}
