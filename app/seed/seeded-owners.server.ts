import type { DB } from "~/db/db.server";
import { SYNTHETIC_DOMAIN } from "./synthetic.server";

/** Every demo owner's address ends so (app/seed/demo.server.ts); nobody else's photos come from the seed. */
const DEMO_DOMAIN = "@demo.bodima.lk";

/**
 * The accounts the seeds made (the demo owners and landlords, the synthetic
 * landlords): their photos are drawn from a dozen scenes and are marked
 * seeded when fingerprinted later, so they never count as copied (ADR 074).
 */
export async function seededOwnerIds(db: DB): Promise<Set<string>> {
  const rows = await db
    .selectFrom("users")
    .select("id")
    .where((eb) => eb.or([eb("email", "like", `%${DEMO_DOMAIN}`), eb("email", "like", `%${SYNTHETIC_DOMAIN}`)]))
    .execute();
  return new Set(rows.map((r) => r.id));
}
