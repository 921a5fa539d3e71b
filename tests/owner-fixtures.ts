import { cookieHeaders, getAuth } from "../app/auth/auth.server";
import type { DB } from "../app/db/db.server";
import { createOwnerAccount } from "../app/models/account.server";
import { requestContext } from "../app/services.server";
import { OWNER_PASSWORD } from "./owner-session";
import { TEST_SITE, testContext } from "./request-context";

/** A valid post/edit form as the browser sends it (strings); override what the test is about. */
export const LISTING_FORM = {
  title: "Bright room near campus",
  description: "A quiet room with a desk and a fan.",
  price: "18000",
  keymoneyFee: "20000",
  university: "University of Moratuwa",
  faculty: "Main Campus",
  propertyType: "single",
  gender: "female",
  mapLink: "",
  location: "Katubedda",
  contactName: "",
  contactPhone: "",
} as const;

export const TEST_PASSWORD = OWNER_PASSWORD;

/** A real account signed in through better-auth, with the cookie a browser would send back. */
export async function signedInAccount(
  db: DB,
  tag: string,
  options: { name?: string; role?: "owner" | "moderator" } = {},
) {
  const { name = "Kamala Perera", role = "owner" } = options;
  const email = `${tag}-${crypto.randomUUID().slice(0, 8)}@example.lk`;
  const account = await createOwnerAccount(db, { name, email, phone: "0771234567", password: TEST_PASSWORD, role });
  const { headers } = await getAuth(testContext({ db }).get(requestContext)).api.signInEmail({
    body: { email, password: TEST_PASSWORD },
    headers: new Headers({ origin: TEST_SITE }),
    returnHeaders: true,
  });
  const cookie = cookieHeaders(headers)
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { owner: { id: account.id, email, name, phone: "0771234567" }, cookie };
}
