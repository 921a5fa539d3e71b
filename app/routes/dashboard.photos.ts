import { judgeRequest } from "~/auth/guard.server";
import { type MessageKey, t } from "~/i18n";
import { retryAfterHeaders } from "~/limits/rate-limit.server";
import { refusalOf } from "~/limits/refusal.server";
import { uploadPhoto } from "~/models/photo-upload.server";
import { LISTING_LIMITS } from "~/schemas/listing-form";
import type { PhotoCode } from "~/schemas/result";
import { MAX_PHOTO_UPLOAD_BYTES, readBody } from "~/security/body-limit.server";
import { noStore } from "~/security/no-store.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/dashboard.photos";
import "virtual:catalogue/photos";

/**
 * POST /dashboard/photos: one image per request, uploaded by the photo picker
 * as soon as it is chosen (ADR 009). Answers JSON { id, url, width,
 * height } or { error } with the spec's texts. The photo stays unattached until
 * a post or edit claims its id ("uploadIds"); unclaimed ones go after a day.
 */

const ERROR_KEYS: Record<PhotoCode, MessageKey> = {
  "photo.invalid": "photos.errors.invalid",
  "photo.dimensions_too_large": "photos.errors.dimensions",
};

function refuse(key: MessageKey, status: number, headers?: HeadersInit, values?: Record<string, unknown>) {
  return Response.json({ error: t(key, values) }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** The one file of the form, or null when there is none or more than one. */
function onlyFile(form: FormData): File | null {
  const files = [...form.values()].filter((v): v is File => typeof v !== "string");
  return files.length === 1 ? files[0] : null;
}

/** Never cached, like the dashboard it serves. */
export const middleware: Route.MiddlewareFunction[] = [noStore];

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, log, storage, limiter } = context.get(requestContext);
  // Refusals in the picker's words, as JSON (outside the dashboard layout, which answers with pages).
  const verdict = await judgeRequest({ request, context });
  if (!verdict.ok)
    return verdict.refusal === "signedOut" ? refuse("photos.errors.signIn", 401) : refuse("photos.errors.origin", 403);
  const { user } = verdict;
  const decision = await limiter.consume("uploadUser", { user: user.id });
  if (!decision.ok) {
    const refused = refusalOf(decision, "photos.errors.rateLimited");
    return refuse(refused.message, refused.status, retryAfterHeaders(decision), {
      minutes: Math.ceil(decision.retryAfterSeconds / 60),
    });
  }
  // Read with a cap, so an oversized upload is refused before it is buffered whole.
  const read = await readBody(request, { maxBytes: MAX_PHOTO_UPLOAD_BYTES, kinds: ["multipart"] });
  if (!read.ok && read.problem === "tooLarge") return refuse("photos.errors.tooLarge", 413);
  const file = read.ok ? onlyFile(read.body) : null;
  if (!file) return refuse("photos.errors.oneImage", 400);
  if (file.size >= LISTING_LIMITS.maxPhotoBytes) return refuse("photos.errors.tooLarge", 413);

  try {
    const result = await uploadPhoto(db, storage, user.id, Buffer.from(await file.arrayBuffer()));
    if (!result.ok) return refuse(ERROR_KEYS[result.code], 422);
    log.info({ photoId: result.photo.id }, "photo uploaded");
    return Response.json(result.photo, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    log.error({ err: error }, "storing an uploaded photo failed");
    return refuse("photos.errors.unavailable", 503);
  }
}
