import { data, redirect } from "react-router";
import type { SessionUser } from "~/auth/auth.server";
import type { MessageKey } from "~/i18n";
import { nextAttempt } from "~/lib/form-attempt";
import type { ListingEdit, SaveListingResult } from "~/models/owner-listings.server";
import { type FormMessage, type ListingFormState, listingProblems } from "~/schemas/form-problems";
import { type ListingFormField, readListingForm } from "~/schemas/listing-form";
import type { Failure, ListingFormCode } from "~/schemas/result";
import "virtual:catalogue/listing-form";

/** What the post and edit actions answer: a refusal for the form to show, or (with JavaScript) success, held for review or not. */
export type ListingActionResult =
  | (ListingFormState & { limitReached?: true; confirmFirst?: true })
  | { saved: true; held?: true };

/** A refusal before the form could be read: no values to keep, a first try. */
export function refuse(
  first: FormMessage,
  status: number,
  extra: Partial<ListingFormState & { limitReached: true; confirmFirst: true }> = {},
) {
  return data({ errors: {}, values: {}, amenities: [], attempt: 1, first, ...extra } satisfies ListingActionResult, {
    status,
  });
}

/** The listing form's body as readBody (app/security/body-limit.server.ts) read it, with LISTING_FORM_BODY. */
export type ReadListingForm = { ok: true; body: FormData } | { ok: false; problem: "tooLarge" | "unreadable" };

/** The form as far as an oversized or broken body allows; anything else than `ListingSubmission` is the answer to send. */
function listingSubmissionFrom(read: ReadListingForm, user: SessionUser) {
  if (!read.ok && read.problem === "tooLarge")
    return refuse({ key: "listingForm.errors.requestTooLarge" }, 413, {
      errors: { photos: { key: "listingForm.errors.requestTooLarge" } },
    });
  if (!read.ok) return refuse({ key: "listingForm.errors.required" }, 400);
  return listingSubmission(read.body, user);
}

export type ListingSubmission = ReturnType<typeof listingSubmission>;

function strings(form: FormData, name: string): string[] {
  return form.getAll(name).filter((v): v is string => typeof v === "string" && v !== "");
}

/** The fields of the post and edit forms; anything else posted (userId, status, slug ...) is never read. */
function listingSubmission(form: FormData, user: SessionUser) {
  const raw = readListingForm(form);
  return {
    values: {
      ...raw,
      contactName: raw.contactName?.trim() ? raw.contactName : user.name,
      contactPhone: raw.contactPhone?.trim() ? raw.contactPhone : user.phone,
    },
    amenities: raw.amenities ?? [],
    files: form.getAll("photos").filter((f): f is File => typeof f !== "string" && (f.size > 0 || f.name !== "")),
    uploadIds: strings(form, "uploadIds"),
    removePhotoIds: strings(form, "removePhotos"),
    /** The SMS code for the contact phone, when the form asked for one (ADR 076). */
    phoneCode: strings(form, "phoneCode")[0]?.trim() ?? "",
    /** The try this is (the spec: failed attempts are counted in the banner). */
    attempt: nextAttempt(form),
    /** Sent by the hydrated form: it shows success itself, so no redirect. */
    enhanced: form.get("enhanced") === "1",
  };
}

/**
 * Every problem the text and the files have, reported at once (the model
 * checks all again). `keptPhotos` is how many photos the listing keeps (edit).
 */
function submissionProblems(submission: ListingSubmission, keptPhotos = 0) {
  const { values, amenities, files, uploadIds, attempt } = submission;
  const problems = listingProblems(values, files, keptPhotos + new Set(uploadIds).size + files.length);
  if (!problems) return null;
  return data({ ...problems, values, amenities, attempt } satisfies ListingActionResult, { status: 400 });
}

/**
 * The post and edit actions' reading of the form: the submission, or the answer
 * to send (a body too large or broken, or every problem found). `photos` are
 * the ones the listing has (edit): those not marked for removal count as kept.
 */
export function readListingSubmission(read: ReadListingForm, user: SessionUser, photos: { id: string }[] = []) {
  const submission = listingSubmissionFrom(read, user);
  if (!("values" in submission)) return { answer: submission };
  const kept = photos.filter((p) => !submission.removePhotoIds.includes(p.id)).length;
  const problems = submissionProblems(submission, kept);
  return problems ? { answer: problems } : { submission };
}

/** A submission's photos as the listing model takes them: new files read into memory, uploads, removals (edit). */
export async function submittedPhotos(submission: ListingSubmission): Promise<ListingEdit> {
  const files = await Promise.all(submission.files.map(async (f) => Buffer.from(await f.arrayBuffer())));
  return { files, uploadIds: submission.uploadIds, removePhotoIds: submission.removePhotoIds };
}

/**
 * The answer to a save: saved, or the model's refusal with what the owner
 * typed kept (409 at the listing limit). `notice` names My Ads' notice.
 */
export function savedAnswer(submission: ListingSubmission, result: SaveListingResult, notice: "posted" | "updated") {
  if (!result.ok) return modelRefusal(submission, result, result.code === "listing.limit_reached" ? 409 : 400);
  return listingSaved(submission, notice, result.held);
}

/**
 * Saved: without JavaScript, back to My Ads with its notice (`?posted=held`
 * when the checks held it: it is not live); the hydrated form says it itself.
 */
function listingSaved(submission: ListingSubmission, notice: "posted" | "updated", held: boolean) {
  if (!submission.enhanced) return redirect(`/dashboard?${notice}=${held ? "held" : "1"}`);
  return (held ? { saved: true, held: true } : { saved: true }) satisfies ListingActionResult;
}

/** The catalogue key that says why the model refused (ADR 026). */
const REFUSAL_KEYS: Record<ListingFormCode, MessageKey> = {
  "listing.not_found": "listingForm.errors.notFound",
  "listing.limit_reached": "listingForm.errors.limit",
  "listing.phone_limit": "listingForm.errors.phoneLimit",
  // The action found no problem with the same rules first (submissionProblems).
  "listing.invalid": "listingForm.errors.required",
  "photo.required": "listingForm.errors.photoRequired",
  "photo.too_many": "listingForm.errors.photoCount",
  "photo.gone": "listingForm.errors.photoGone",
  "photo.invalid": "listingForm.errors.photoInvalid",
  "photo.dimensions_too_large": "listingForm.errors.photoDimensions",
};

/** The model's refusal, with what the owner typed kept. */
function modelRefusal(
  submission: ListingSubmission,
  failure: Failure<ListingFormCode, ListingFormField>,
  status: number,
) {
  const { values, amenities, attempt } = submission;
  const message: FormMessage = {
    key: REFUSAL_KEYS[failure.code],
    ...(failure.values ? { values: failure.values } : {}),
  };
  const state = {
    errors: failure.field ? { [failure.field]: message } : {},
    first: message,
    values,
    amenities,
    attempt,
    ...(failure.code === "listing.limit_reached" ? { limitReached: true as const } : {}),
  };
  return data(state satisfies ListingActionResult, { status });
}

/** The service failed (not the owner): the values stay, the owner may try again. */
export function unavailable(submission: ListingSubmission, key: MessageKey) {
  const { values, amenities, attempt } = submission;
  return data({ errors: {}, first: { key }, values, amenities, attempt } satisfies ListingActionResult, {
    status: 503,
  });
}
