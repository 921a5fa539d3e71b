import { cookieHeaders, getAuth } from "../app/auth/auth.server";
import type { DB } from "../app/db/db.server";
import { createOwnerAccount } from "../app/models/account.server";
import { requestContext } from "../app/services.server";
import { insertPhoneConfirmation, OWNER_PASSWORD, uniquePhone } from "./owner-session";
import { TEST_SITE, testContext } from "./request-context";

export { LISTING_FORM } from "./listing-form-values";

export const TEST_PASSWORD = OWNER_PASSWORD;

/**
 * A real account signed in through better-auth, with the cookie a browser would send back, and a
 * phone of its own confirmed by SMS today (ADR 076): its posts ask for no code.
 */
export async function signedInAccount(
  db: DB,
  tag: string,
  options: { name?: string; role?: "owner" | "moderator" } = {},
) {
  const { name = "Kamala Perera", role = "owner" } = options;
  const email = `${tag}-${crypto.randomUUID().slice(0, 8)}@example.lk`;
  const phone = uniquePhone();
  const account = await createOwnerAccount(db, { name, email, phone, password: TEST_PASSWORD, role });
  await insertPhoneConfirmation(db, account.id, phone);
  const { headers } = await getAuth(testContext({ db }).get(requestContext)).api.signInEmail({
    body: { email, password: TEST_PASSWORD },
    headers: new Headers({ origin: TEST_SITE }),
    returnHeaders: true,
  });
  const cookie = cookieHeaders(headers)
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { owner: { id: account.id, email, name, phone }, cookie };
}
