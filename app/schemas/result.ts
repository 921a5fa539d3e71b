/**
 * One shape for what a model answers when users can make it refuse (ADR 026):
 * `{ ok: true, ...data }` or `{ ok: false, code, field?, values? }`.
 *
 * A code is a stable identifier, never text. The route or component that
 * shows a failure turns its code into a catalogue key, so one code may read
 * differently on two screens ("photo.invalid" is "Invalid image file" in the
 * photo picker and "File 2: Invalid image file" in the post form).
 */

/** Moderators acting on reports, listings and accounts (admin.reports.$id). */
export type ModerationCode =
  | "moderation.not_found"
  /** Someone acted first: the report, listing or account is no longer in the state the action expects. */
  | "moderation.conflict"
  | "moderation.own_account"
  | "moderation.target_is_moderator"
  | "moderation.owner_suspended";

/** Accounts: the profile form, `npm run user:role`. */
export type AccountCode = "account.not_found" | "account.unknown_email";

/** An uploaded image, checked by its content. */
export type PhotoCode = "photo.invalid" | "photo.dimensions_too_large";

/** Removing one of your uploads that no listing has claimed. */
export type UploadCode = "photo.not_found";

/** Posting or editing a listing. */
export type ListingFormCode =
  | "listing.not_found"
  | "listing.limit_reached"
  /** The contact phone already has 3 live ads, across all accounts (ADR 076). */
  | "listing.phone_limit"
  /** The form breaks a rule of app/schemas/listing-form.ts; the action checks the same rules first. */
  | "listing.invalid"
  | "photo.required"
  | "photo.too_many"
  /** An upload it names is not (or no longer) the owner's to claim. */
  | "photo.gone"
  | PhotoCode;

/** Deleting or renewing one of your listings. */
export type MyListingCode = "listing.not_found" | "listing.hidden";

/**
 * An emailed availability link: besides MyListingCode's, its listing's state
 * was decided after the link was issued (it was used, or answered otherwise: ADR 063).
 */
export type AvailabilityLinkCode = MyListingCode | "availability.used";

/** Reporting a listing. */
export type ReportCode = "listing.not_found" | "report.origin_cap";

/**
 * Asking for a code to confirm a phone (ADR 076); the values carry how long to
 * wait when limited: `minutes` for a number's 10 minutes and a network's hour,
 * `hours` for a number's and an account's day.
 */
export type PhoneCodeRequestCode =
  | "phone.not_mobile"
  | "phone.off"
  | "phone.taken"
  /** 3 codes to this number in 10 minutes. */
  | "phone.limited_number"
  /** 5 codes to this number in 24 hours. */
  | "phone.limited_number_day"
  | "phone.limited_network"
  | "phone.limited_account"
  /** The site's daily SMS budget is spent: nobody gets a code until tomorrow (UTC). */
  | "phone.budget_exhausted"
  /** The gateway did not take the text. */
  | "phone.unavailable";

/** Entering a code (ADR 076); `code_wrong` carries `triesLeft`. */
export type PhoneCodeConfirmCode =
  | "phone.not_mobile"
  | "phone.off"
  | "phone.taken"
  | "phone.code_wrong"
  /** No live code: never sent, past its 10 minutes, used, or out of tries. */
  | "phone.code_expired"
  | "phone.unavailable";

export type Failure<Code extends string = string, Field extends string = string> = {
  ok: false;
  code: Code;
  /** The form field the failure is about, when there is one. */
  field?: Field;
  /** Numbers its message may show, e.g. `{ n: 2 }` for the second file. */
  values?: Record<string, number>;
};

export type Result<Code extends string, Data extends object = Record<never, never>, Field extends string = string> =
  | ({ ok: true } & Data)
  | Failure<Code, Field>;

export function fail<const Code extends string, Field extends string = string>(
  code: Code,
  details: { field?: Field; values?: Record<string, number> } = {},
): Failure<Code, Field> {
  return { ok: false, code, ...details };
}
