import { dictionary } from "@zxcvbn-ts/language-common";
import "virtual:catalogue/accounts";

/**
 * Passwords among the most common ones (zxcvbn-ts's list of about 49,000,
 * shipped offline in @zxcvbn-ts/language-common) are refused on sign-up,
 * reset and change (ADR 019). The list is lower case, so the check is too:
 * "Password1" passes our character rules and is still on it.
 */
export const COMMON_PASSWORD_MESSAGE = "accounts.signup.errors.passwordCommon";

let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary["passwords-common"]);
  return common.has(password.toLowerCase());
}
