import { data } from "react-router";
import type { SessionUser } from "~/auth/auth.server";
import { type ListingFormField, readListingForm } from "~/schemas/listing-form";
import { type FormMessage, listingProblems } from "./form-problems";
import type { ListingFormState } from "./listing-form";
import "virtual:catalogue/listing-form";

/** 3 photos under 5MB each plus the text fields, with room for multipart overhead. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** What the post and edit actions answer: a refusal for the form to show, or (with JavaScript) success. */
export type ListingActionResult = (ListingFormState & { limitReached?: true }) | { saved: true };

/** A refusal before the form could be read: no values to keep, a first try. */
export function refuse(
  first: FormMessage,
  status: number,
  extra: Partial<ListingFormState & { limitReached: true }> = {},
) {
  return data({ errors: {}, values: {}, amenities: [], attempt: 1, first, ...extra } satisfies ListingActionResult, {
    status,
  });
}

/** Reads the body with a size cap, so an oversized upload is refused before it is buffered whole. */
export async function readLimitedForm(request: Request): Promise<FormData | "tooLarge" | "invalid"> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_REQUEST_BYTES) return "tooLarge";
  if (!request.body) return "invalid";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of request.body) {
    total += chunk.byteLength;
    if (total > MAX_REQUEST_BYTES) return "tooLarge";
    chunks.push(chunk);
  }
  try {
    return await new Response(Buffer.concat(chunks), {
      headers: { "content-type": request.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    return "invalid";
  }
}

/** Reads the form as far as an oversized or broken body allows; anything else than `ListingSubmission` is the answer to send. */
export async function readListingSubmission(request: Request, user: SessionUser) {
  const form = await readLimitedForm(request);
  if (form === "tooLarge")
    return refuse({ key: "listingForm.errors.requestTooLarge" }, 413, {
      errors: { photos: { key: "listingForm.errors.requestTooLarge" } },
    });
  if (form === "invalid") return refuse({ key: "listingForm.errors.required" }, 400);
  return listingSubmission(form, user);
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
    /** The try this is (SPEC.md section 4: failed attempts are counted in the banner). */
    attempt: Math.min(Number(form.get("attempt")) || 0, 99) + 1,
    /** Sent by the hydrated form: it shows success itself, so no redirect. */
    enhanced: form.get("enhanced") === "1",
  };
}

/**
 * Every problem the text and the files have, reported at once (the model
 * checks all again). `keptPhotos` is how many photos the listing keeps (edit).
 */
export function submissionProblems(submission: ListingSubmission, keptPhotos = 0) {
  const { values, amenities, files, uploadIds, attempt } = submission;
  const problems = listingProblems(values, files, keptPhotos + new Set(uploadIds).size + files.length);
  if (!problems) return null;
  return data({ ...problems, values, amenities, attempt } satisfies ListingActionResult, { status: 400 });
}

/** The model's refusal, with what the owner typed kept. */
export function modelRefusal(
  submission: ListingSubmission,
  result: { errors: Partial<Record<ListingFormField, FormMessage>>; first: FormMessage; limitReached?: true },
  status: number,
) {
  const { values, amenities, attempt } = submission;
  const state = {
    errors: result.errors,
    first: result.first,
    values,
    amenities,
    attempt,
    ...(result.limitReached ? { limitReached: true as const } : {}),
  };
  return data(state satisfies ListingActionResult, { status });
}

/** The service failed (not the owner): the values stay, the owner may try again. */
export function unavailable(submission: ListingSubmission, key: string) {
  const { values, amenities, attempt } = submission;
  return data({ errors: {}, first: { key }, values, amenities, attempt } satisfies ListingActionResult, {
    status: 503,
  });
}
