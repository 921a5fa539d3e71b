import type { MessageKey } from "~/i18n/keys.generated";
import {
  LISTING_LIMITS,
  type ListingFormField,
  type ListingTextField,
  parseListingForm,
  type RawListingForm,
} from "~/schemas/listing-form";
import "virtual:catalogue/listing-form";

/** A catalogue key and its values, translated where it is shown. */
export type FormMessage = { key: MessageKey; values?: Record<string, number | string> };

/** The fields a refusal can name: the form's, and the SMS code asked for the contact phone (ADR 076). */
export type ListingFormErrorField = ListingFormField | "phoneCode";

/** A photo stored for a post or edit not saved yet, as the photo picker shows an upload. */
export type KeptUpload = { id: string; url: string };

/**
 * What the action sends back after a refused post or edit: the values, the messages and the try it
 * was. Files are not sent back: a post held for its phone code keeps them as uploads instead.
 */
export type ListingFormState = {
  errors: Partial<Record<ListingFormErrorField, FormMessage>>;
  first: FormMessage;
  values: Partial<Record<ListingTextField, string>>;
  amenities: string[];
  attempt: number;
  /**
   * The contact phone waits for its SMS code (ADR 076): the number in its local form, and whether
   * a code went to it with this answer (then `first` says so, as a notice rather than an error).
   */
  phoneCode?: { phone: string; sent: boolean };
  /** The photos of this post already stored as the owner's uploads (sent again as "uploadIds"). */
  uploads?: KeptUpload[];
};

export type ListingProblems = { errors: Partial<Record<ListingFormField, FormMessage>>; first: FormMessage };

function fileProblem(files: { type: string; size: number }[], total: number): FormMessage | null {
  if (total > LISTING_LIMITS.maxPhotos) return { key: "listingForm.errors.photoCount" };
  for (const [i, file] of files.entries()) {
    if (!file.type.startsWith("image/")) return { key: "listingForm.errors.photoType", values: { n: i + 1 } };
    if (file.size >= LISTING_LIMITS.maxPhotoBytes) return { key: "listingForm.errors.photoSize", values: { n: i + 1 } };
  }
  if (total === 0) return { key: "listingForm.errors.photoRequired" };
  return null;
}

/**
 * Every problem the text and the photos of a post or edit have, at once,
 * in the browser before sending and in the action again.
 * `photoTotal` counts kept, uploaded and attached photos together.
 */
export function listingProblems(
  values: RawListingForm,
  files: { type: string; size: number }[],
  photoTotal: number,
): ListingProblems | null {
  const parsed = parseListingForm(values);
  const photoError = fileProblem(files, photoTotal);
  if (parsed.ok && !photoError) return null;
  const errors: Partial<Record<ListingFormField, FormMessage>> = {};
  if (!parsed.ok) for (const [field, key] of Object.entries(parsed.errors)) errors[field as ListingFormField] = { key };
  if (photoError) errors.photos = photoError;
  const missing = Object.values(errors).some(
    (e) => e.key === "listingForm.errors.required" || e.key === "listingForm.errors.photoRequired",
  );
  const first: FormMessage = missing
    ? { key: "listingForm.errors.required" }
    : parsed.ok
      ? photoError!
      : { key: parsed.first };
  return { errors, first };
}
