import { createHash } from "node:crypto";
import { getSessionUser } from "~/auth/auth.server";
import { photoVisibility } from "~/models/photo.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/photos.$key";

/** `${photoId}-${width}.webp`, as app/models/photo.server.ts names variants. */
const PHOTO_KEY = /^([0-9a-f-]{36})-\d{2,4}\.webp$/;

/**
 * A public photo may be kept for ten minutes, not for a year: its URL is not
 * versioned, and a listing hidden or deleted must stop showing its photos
 * (ADR 020). The ETag makes the revalidation after that a 304.
 */
export const PUBLIC_PHOTO_CACHE = "public, max-age=600";
/** Photos of a listing the public cannot see, shown to its owner or a moderator. */
const PRIVATE_PHOTO_CACHE = "private, no-store";

function notFound() {
  return new Response("Photo not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const key = params.key;
  const match = PHOTO_KEY.exec(key);
  if (!match) return notFound();
  const { storage, db, log } = context.get(requestContext);
  const visibility = await photoVisibility(db, match[1]!);
  let cacheControl: string;
  if (visibility.kind === "public") cacheControl = PUBLIC_PHOTO_CACHE;
  else {
    // An upload in progress, or a listing that is hidden, pending or deleted: its owner and moderators only.
    const user = await getSessionUser(request, context);
    const allowed =
      !!user && (user.role === "moderator" || (visibility.kind === "owner" && user.id === visibility.userId));
    if (!allowed) return notFound();
    cacheControl = PRIVATE_PHOTO_CACHE;
  }
  let data: Buffer | null;
  try {
    data = await storage.get(key);
  } catch (error) {
    // The bucket cannot be reached (STORAGE_URL): a moment's trouble, not a missing photo.
    log.error({ err: error, key }, "photo storage unavailable");
    return new Response(null, { status: 503, headers: { "Retry-After": "30", "Cache-Control": "no-store" } });
  }
  if (!data) return notFound();
  const etag = `"${createHash("sha256").update(data).digest("base64url").slice(0, 27)}"`;
  const headers = { "Cache-Control": cacheControl, ETag: etag };
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (ifNoneMatch?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(new Uint8Array(data), {
    headers: { ...headers, "Content-Type": "image/webp", "Content-Length": String(data.length) },
  });
}
