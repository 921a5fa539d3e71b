import type { DB } from "~/db/db.server";

/** Listings, each joined to its owner's account: `users.*` columns stand beside `listings.*`. */
export function listingsWithOwner(db: DB) {
  return db.selectFrom("listings").innerJoin("users", "users.id", "listings.userId");
}

/** What an email to a listing's owner needs: their address, the name it greets, its language (ADR 069). */
export type OwnerAddress = { email: string; name: string; locale: string };

/** The columns of OwnerAddress, for a query through `listingsWithOwner`. */
export const OWNER_MAIL_COLUMNS = ["users.email", "users.name", "users.locale"] as const;
