import { randomBytes, randomInt } from "node:crypto";
import { withAppModules } from "../app-modules.ts";
import type { Ledger, SoakOwner } from "./traffic.ts";
import type { WriteCheck } from "./verdict.ts";

/**
 * The soak's dealings with the database outside the server: a fresh
 * PostgreSQL database when asked for, the owner accounts it signs in with,
 * and, at the end, whether every acknowledged write is there.
 */

type Db = typeof import("../../app/db/db.server.ts");
type Where = { databaseUrl?: string; dataDir: string };

async function withDb<T>(where: Where, work: (db: ReturnType<Db["createDatabase"]>["db"]) => Promise<T>): Promise<T> {
  return withAppModules(async (load) => {
    const { createDatabase } = await load<Db>("/app/db/db.server.ts");
    const { db, destroy } = createDatabase(where);
    try {
      return await work(db);
    } finally {
      await destroy();
    }
  });
}

/** Creates (dropping any left over) the PostgreSQL database `name` on the server of `adminUrl`; returns its URL and a drop. */
export async function freshPostgres(adminUrl: string, name: string) {
  const { default: pg } = await import("pg");
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * `count` owner accounts as sign-up and its emailed link leave them, each with
 * a phone of its own confirmed by SMS (so posting asks for no code, ADR 076)
 * and a password the soak signs in with through the login form.
 */
export async function createOwners(where: Where, count: number): Promise<SoakOwner[]> {
  return withAppModules(async (load) => {
    const { createOwnerAccount } = await load<typeof import("../../app/models/account.server.ts")>(
      "/app/models/account.server.ts",
    );
    const { recordConfirmation } = await load<typeof import("../../app/models/phone-confirmation.server.ts")>(
      "/app/models/phone-confirmation.server.ts",
    );
    const { toE164 } = await load<typeof import("../../app/lib/phone.ts")>("/app/lib/phone.ts");
    return withDb(where, async (db) => {
      const password = `Soak-${randomBytes(6).toString("hex")}`;
      const owners: SoakOwner[] = [];
      const run = randomBytes(3).toString("hex");
      for (let i = 0; i < count; i++) {
        // 078 numbers the seed's demo owners never use, one per owner (3 ads per phone, ADR 076).
        const phone = `078${String(randomInt(1_000_000) * 10 + (i % 10)).padStart(7, "0")}`;
        const email = `soak-owner-${run}-${i}@example.lk`;
        const { id } = await createOwnerAccount(db, { name: `Soak Owner ${i}`, email, phone, password });
        await recordConfirmation(db, id, toE164(phone)!, new Date());
        owners.push({ email, password });
      }
      return owners;
    });
  });
}

/** Views counted so far over all listings (listing_counters.views). */
export async function totalViews(where: Where): Promise<number> {
  return withDb(where, async (db) => {
    const row = await db
      .selectFrom("listing_counters")
      .select((eb) => eb.fn.sum<number>("views").as("views"))
      .executeTakeFirstOrThrow();
    return Number(row.views ?? 0);
  });
}

/** Each kind of acknowledged write, and those the database does not hold (ADR 094). */
export async function checkLedger(where: Where, ledger: Ledger): Promise<WriteCheck[]> {
  return withDb(where, async (db) => {
    const byId = new Map<number, string>();
    const owned = new Map<string, number>();
    for (const row of await db
      .selectFrom("listings")
      .select(["id", "title", "userEmail"])
      .where("userEmail", "like", "soak-owner-%")
      .execute()) {
      byId.set(Number(row.id), row.title);
      owned.set(row.userEmail, (owned.get(row.userEmail) ?? 0) + 1);
    }
    const posts = [...ledger.posts]
      .filter(([email, n]) => (owned.get(email) ?? 0) < n)
      .map(([email, n]) => `${email} (${owned.get(email) ?? 0} of ${n})`);
    // The last acknowledged edit of a listing is its title now (owners edit one after another, never at once).
    const edits = [...ledger.edits].filter(([id, title]) => byId.get(id) !== title).map(([id]) => `listing ${id}`);
    const saved = new Map<number, number>();
    for (const row of await db
      .selectFrom("shortlist_items")
      .select(["listingId", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy("listingId")
      .execute())
      saved.set(Number(row.listingId), Number(row.n));
    const saves = [...ledger.saves]
      .filter(([id, n]) => (saved.get(id) ?? 0) < n)
      .map(([id, n]) => `listing ${id} (${saved.get(id) ?? 0} of ${n})`);
    const stored = new Set(
      (
        await db.selectFrom("reports").select("description").where("description", "like", "Soak report %").execute()
      ).map((r) => r.description),
    );
    const reports = ledger.reports.filter((d) => !stored.has(d));
    const acknowledgedSaves = [...ledger.saves.values()].reduce((a, b) => a + b, 0);
    return [
      { kind: "posts", acknowledged: [...ledger.posts.values()].reduce((a, b) => a + b, 0), missing: posts },
      { kind: "edits", acknowledged: ledger.edits.size, missing: edits },
      { kind: "saves", acknowledged: acknowledgedSaves, missing: saves },
      { kind: "reports", acknowledged: ledger.reports.length, missing: reports },
    ];
  });
}
