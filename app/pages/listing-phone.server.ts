import { data } from "react-router";
import type { SessionUser } from "~/auth/auth.server";
import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { localPhone, parseSriLankanPhone, toE164 } from "~/lib/phone";
import type { PhoneConfirmation } from "~/models/phone-confirmation.server";
import { phoneAtLimit } from "~/models/phone-limit.server";
import { ownerPhones } from "~/models/phone-status.server";
import { findOwnUploads, type UploadedPhoto, uploadPhoto } from "~/models/photo-upload.server";
import type { FormMessage, ListingFormErrorField, ListingFormState } from "~/schemas/form-problems";
import { PHONE_CODE_MESSAGES } from "~/schemas/phone-confirmation";
import type { Failure, PhoneCodeConfirmCode, PhoneCodeRequestCode } from "~/schemas/result";
import type { ListingSubmission } from "./listing-form.server";
import "virtual:catalogue/listing-form";

/**
 * The contact phone's SMS code inside the post and edit forms (ADR 076): before
 * an ad goes public with a number this owner has not confirmed, the action
 * sends a code and answers the form again (everything typed kept, the photos
 * kept as the owner's uploads), and the next submit carries the code. With no
 * SMS provider (phones.enabled false) nothing is asked.
 */

export type PhoneHoldServices = {
  db: DB;
  storage: Parameters<typeof uploadPhoto>[1];
  phones: PhoneConfirmation;
  clientIp: string;
};

/** What the post and edit forms are told (PhoneCheck): whether codes are asked, and the numbers that need none. */
export async function phoneCheckFor(services: Pick<PhoneHoldServices, "db" | "phones">, userId: string) {
  if (!services.phones.enabled) return { enabled: false, confirmed: [] };
  return { enabled: true, confirmed: (await ownerPhones(services.db, userId)).confirmed };
}

type Held = ReturnType<typeof data<ListingFormState>>;

/** Answers that are a wait, not a mistake: 429; the gateway failing: 503, as the site's other outages. */
function statusOf(code: PhoneCodeRequestCode | PhoneCodeConfirmCode): number {
  if (code === "phone.unavailable") return 503;
  if (code.startsWith("phone.limited") || code === "phone.budget_exhausted") return 429;
  return 400;
}

function messageOf(failure: Failure<PhoneCodeRequestCode | PhoneCodeConfirmCode>): FormMessage {
  return { key: PHONE_CODE_MESSAGES[failure.code], ...(failure.values ? { values: failure.values } : {}) };
}

/**
 * The photos of a held post, kept: files sent with the form (no JavaScript)
 * are stored as the owner's uploads, the way the browser's picker stores them,
 * after the uploads it named already. A file that is no image answers an error.
 */
async function keptPhotos(
  services: PhoneHoldServices,
  user: SessionUser,
  submission: ListingSubmission,
): Promise<{ uploads: UploadedPhoto[] } | { problem: FormMessage }> {
  const uploads = await findOwnUploads(services.db, user.id, submission.uploadIds);
  for (const [i, file] of submission.files.entries()) {
    const stored = await uploadPhoto(services.db, services.storage, user.id, Buffer.from(await file.arrayBuffer()));
    if (!stored.ok) return { problem: { key: "listingForm.errors.photoInvalid", values: { n: i + 1 } } };
    uploads.push(stored.photo);
  }
  return { uploads };
}

/** The form again, held for the phone: what was typed, the message, the code field, the photos kept. */
async function held(
  services: PhoneHoldServices,
  user: SessionUser,
  submission: ListingSubmission,
  answer: { field?: ListingFormErrorField; first: FormMessage; phoneCode?: ListingFormState["phoneCode"] },
  status: number,
): Promise<Held> {
  const { values, amenities, attempt } = submission;
  const photos = await keptPhotos(services, user, submission);
  const errors: ListingFormState["errors"] = answer.field ? { [answer.field]: answer.first } : {};
  if ("problem" in photos) errors.photos = photos.problem;
  const uploads = "uploads" in photos ? photos.uploads.map(({ id, url }) => ({ id, url })) : [];
  const state: ListingFormState = {
    errors,
    first: answer.first,
    values,
    amenities,
    attempt,
    uploads,
    ...(answer.phoneCode ? { phoneCode: answer.phoneCode } : {}),
  };
  return data(state, { status });
}

/** The numbers a post may have to confirm: the contact number, and WhatsApp's own (ADR 092). */
type PhoneField = "contactPhone" | "whatsappPhone";

/** The numbers the listing has, as typed (edit): keeping one, however written, needs no code. */
export type KeptPhones = { contactPhone?: string | null; whatsappPhone?: string | null };

/**
 * Whether the post or edit may go on as far as its phones go: null, or the
 * answer to send instead. The contact number first, then WhatsApp's own number
 * when the owner gave one; one code at a time, so a code the contact number
 * used is not tried on the next. Keeping a number (edit), however written,
 * needs no code, even one that is no mobile (ads from before). `mode` picks the notice's words.
 */
export async function holdForPhoneCode(
  services: PhoneHoldServices,
  user: SessionUser,
  submission: ListingSubmission,
  mode: "create" | "edit",
  keep: KeptPhones = {},
): Promise<Held | null> {
  if (!services.phones.enabled) return null;
  const contact = await holdFor(services, user, submission, mode, "contactPhone", keep.contactPhone ?? null);
  if (contact.answer) return contact.answer;
  const next = contact.usedCode ? { ...submission, phoneCode: "" } : submission;
  return (await holdFor(services, user, next, mode, "whatsappPhone", keep.whatsappPhone ?? null)).answer;
}

type HoldAnswer = { answer: Held | null; usedCode: boolean };
const GO_ON: HoldAnswer = { answer: null, usedCode: false };

async function holdFor(
  services: PhoneHoldServices,
  user: SessionUser,
  submission: ListingSubmission,
  mode: "create" | "edit",
  field: PhoneField,
  keep: string | null,
): Promise<HoldAnswer> {
  const { phones } = services;
  const typed = submission.values[field] ?? "";
  const phone = parseSriLankanPhone(typed);
  if (field === "whatsappPhone") {
    // None of its own: WhatsApp is on the contact number, confirmed above.
    if (typed.trim() === "" || phone?.e164 === toE164(submission.values.contactPhone ?? "")) return GO_ON;
  }
  if (keep !== null && (typed.trim() === keep.trim() || (phone !== null && phone.e164 === toE164(keep)))) return GO_ON;
  const hold = async (answer: Parameters<typeof held>[3], status: number): Promise<HoldAnswer> => ({
    answer: await held(services, user, submission, answer, status),
    usedCode: false,
  });
  if (!phone?.mobile) return hold({ field, first: messageOf({ ok: false, code: "phone.not_mobile" }) }, 400);
  if (await phones.isConfirmed(user, typed)) return GO_ON;
  const local = localPhone(phone.e164);
  // A number with 3 ads already gets no code: the post would be refused anyway.
  if (field === "contactPhone" && (await phoneAtLimit(services.db, typed, currentTime())))
    return hold({ field, first: { key: "listingForm.errors.phoneLimit" } }, 409);

  if (submission.phoneCode) {
    const confirmed = await phones.confirmCode(user, typed, submission.phoneCode);
    if (confirmed.ok) return { answer: null, usedCode: true };
    return hold(
      {
        field: confirmed.code === "phone.taken" ? field : "phoneCode",
        first: messageOf(confirmed),
        phoneCode: { phone: local, sent: false },
      },
      statusOf(confirmed.code),
    );
  }

  const requested = await phones.requestCode(user, typed, services.clientIp, user.locale);
  if (requested.ok && requested.status === "alreadyConfirmed") return GO_ON;
  if (!requested.ok) {
    // A wait (a limit, the gateway) leaves the code field: a code sent a moment ago may still be good.
    const onNumber = requested.code === "phone.taken" || requested.code === "phone.not_mobile";
    const phoneCode = onNumber ? undefined : { phone: local, sent: false };
    return hold(
      { field: onNumber ? field : "phoneCode", first: messageOf(requested), phoneCode },
      statusOf(requested.code),
    );
  }
  const first: FormMessage = {
    key: mode === "create" ? "listingForm.phoneConfirm.sentPost" : "listingForm.phoneConfirm.sentEdit",
    values: { phone: local },
  };
  return hold({ first, phoneCode: { phone: local, sent: true } }, 200);
}
