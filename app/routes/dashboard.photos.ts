import type { Route } from "./+types/dashboard.photos";
import { getSessionUser, isSameOrigin } from "~/auth/auth.server";
import { t } from "~/i18n";
import { retryAfterHeaders } from "~/limits/rate-limit.server";
import { uploadPhoto } from "~/models/photo-upload.server";
import type { PhotoError } from "~/models/photo.server";
import { LISTING_LIMITS } from "~/schemas/listing-form";
import { requestContext } from "~/services.server";
import "virtual:catalogue/photos";

/**
 * POST /dashboard/photos: one image per request, uploaded by the photo picker
 * as soon as it is chosen (issue 3 "Photos"). Answers JSON { id, url, width,
 * height } or { error } with the spec's texts. The photo stays unattached until
 * a post or edit claims its id ("uploadIds"); unclaimed ones go after a day.
 */

/** The browser sends resized JPEGs, but a client that does not resize may send up to 5MB; the rest is multipart overhead. */
export const MAX_UPLOAD_BODY_BYTES = LISTING_LIMITS.maxPhotoBytes + 1024 * 1024;

const ERROR_KEYS: Record<PhotoError, string> = {
  "Invalid image file": "photos.errors.invalid",
  "Image dimensions too large": "photos.errors.dimensions",
};

function refuse(key: string, status: number, headers?: HeadersInit, values?: Record<string, unknown>) {
  return Response.json({ error: t(key, values) }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** The body, read with a cap so an oversized upload is refused before it is buffered whole. */
async function readCappedBody(request: Request, cap: number): Promise<Buffer | "tooLarge"> {
  if (Number(request.headers.get("content-length") ?? "0") > cap) return "tooLarge";
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of request.body ?? []) {
    size += part.byteLength;
    if (size > cap) return "tooLarge";
    parts.push(part);
  }
  return Buffer.concat(parts);
}

async function onlyFile(request: Request, body: Buffer): Promise<File | null> {
  try {
    const form = await new Response(new Uint8Array(body), {
      headers: { "content-type": request.headers.get("content-type") ?? "" },
    }).formData();
    const files = [...form.values()].filter((v): v is File => typeof v !== "string");
    return files.length === 1 ? files[0] : null;
  } catch {
    return null;
  }
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, log, storage, limiter, env } = context.get(requestContext);
  const user = await getSessionUser(request, context);
  if (!user) return refuse("photos.errors.signIn", 401);
  if (!isSameOrigin(request, env.siteUrl)) return refuse("photos.errors.origin", 403);
  const decision = await limiter.consume("uploadUser", user.id);
  if (!decision.ok) {
    return refuse("photos.errors.rateLimited", 429, retryAfterHeaders(decision), {
      minutes: Math.ceil(decision.retryAfterSeconds / 60),
    });
  }
  const body = await readCappedBody(request, MAX_UPLOAD_BODY_BYTES);
  if (body === "tooLarge") return refuse("photos.errors.tooLarge", 413);
  const file = await onlyFile(request, body);
  if (!file) return refuse("photos.errors.oneImage", 400);
  if (file.size >= LISTING_LIMITS.maxPhotoBytes) return refuse("photos.errors.tooLarge", 413);

  try {
    const result = await uploadPhoto(db, storage, user.id, Buffer.from(await file.arrayBuffer()));
    if (!result.ok) return refuse(ERROR_KEYS[result.error], 422);
    log.info({ photoId: result.photo.id }, "photo uploaded");
    return Response.json(result.photo, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    log.error({ err: error }, "storing an uploaded photo failed");
    return refuse("photos.errors.unavailable", 503);
  }
}
