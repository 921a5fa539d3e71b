import { beforeEach, expect, it } from "vitest";
import { insertListing } from "../../app/models/listing.server";
import { forgetTypicalRents } from "../../app/models/price-context.server";
import { gatherScamFacts, newAccountsSharing } from "../../app/models/scam-facts.server";
import { scoreListing } from "../../app/models/scam-signals";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

// ADR 077: the facts the scam signals read from the database: how many new
// accounts used a phone or a network within a day, and the typical rent.

const NOW = new Date("2026-11-28T12:00:00.000Z");
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();

describeEachDatabase("scam signals: facts from the database", (ctx) => {
  beforeEach(() => forgetTypicalRents());

  async function account(id: string, createdAt: string, options: { phone?: string; ip?: string } = {}) {
    const { db } = ctx();
    await insertTestOwner(db, id, { createdAt });
    await db
      .updateTable("users")
      .set({ phone: options.phone ?? "0112345678" })
      .where("id", "=", id)
      .execute();
    if (options.ip)
      await db
        .insertInto("sessions")
        .values({
          id: `s-${id}`,
          userId: id,
          token: `t-${id}`,
          expiresAt: hoursAgo(-24),
          ipAddress: options.ip,
          userAgent: null,
          createdAt,
          updatedAt: createdAt,
        })
        .execute();
  }

  it("counts the accounts of the last day that gave the phone, however it is written", async () => {
    const { db } = ctx();
    await account("phone-a", hoursAgo(1), { phone: "0779876543" });
    await account("phone-b", hoursAgo(5), { phone: "+94 77 987 6543" });
    // The third gives it only as a listing's contact phone.
    await account("phone-c", hoursAgo(20));
    await insertListing(
      db,
      { id: "phone-c", email: "phone-c@example.com" },
      listingInput({ contactPhone: "077-987-6543" }),
    );
    // Too old, or another number: not counted.
    await account("phone-old", hoursAgo(30), { phone: "0779876543" });
    await account("phone-other", hoursAgo(1), { phone: "0779876500" });

    expect(await newAccountsSharing(db, { phone: "0779876543", ip: null }, NOW)).toEqual({ onPhone: 3, onNetwork: 0 });
  });

  it("counts the new accounts that signed in from the same network (/24), not the same address only", async () => {
    const { db } = ctx();
    await account("net-a", hoursAgo(2), { ip: "203.0.113.10" });
    await account("net-b", hoursAgo(3), { ip: "203.0.113.77" });
    await account("net-c", hoursAgo(4), { ip: "::ffff:203.0.113.200" });
    await account("net-elsewhere", hoursAgo(1), { ip: "198.51.100.5" });
    await account("net-old", hoursAgo(25), { ip: "203.0.113.11" });

    const facts = await newAccountsSharing(db, { phone: "0700000000", ip: "203.0.113.99" }, NOW);
    expect(facts.onNetwork).toBe(3);
    expect(
      scoreListing({
        title: "Room",
        description: "",
        rent: 10000,
        keyMoney: null,
        typicalRent: null,
        newAccounts: facts,
      }).signals.map((s) => s.id),
    ).toEqual(["shared-phone-or-network"]);
  });

  it("gathers the typical rent of similar places with the account facts", async () => {
    const { db } = ctx();
    await account("rent-owner", hoursAgo(48));
    for (const price of [12000, 14000, 15000, 16000, 18000])
      await insertListing(
        db,
        { id: "rent-owner", email: "rent-owner@example.com" },
        listingInput({ price, university: "University of Kelaniya", city: "kelaniya", faculty: "Main Campus" }),
      );

    const facts = await gatherScamFacts(
      db,
      { university: "University of Kelaniya", propertyType: "single", contactPhone: "0771112223" },
      { ip: null },
      NOW,
    );
    expect(facts.typicalRent).toEqual({ low: 14000, high: 16000, count: 5 });
    const cheap = scoreListing({ title: "Room", description: "", rent: 8000, keyMoney: null, ...facts });
    expect(cheap.signals.map((s) => s.id)).toEqual(["low-rent"]);
    expect(cheap.held).toBe(false);
  });
});
