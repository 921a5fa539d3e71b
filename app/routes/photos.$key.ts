import { createHash } from "node:crypto";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/photos.$key";

/** `${photoId}-${width}.webp`, as app/models/photo.server.ts names variants. */
const PHOTO_KEY = /^[0-9a-f-]{36}-\d{2,4}\.webp$/;

function notFound() {
  return new Response("Photo not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const key = params.key;
  if (!PHOTO_KEY.test(key)) return notFound();
  const { storage } = context.get(requestContext);
  const data = await storage.get(key);
  if (!data) return notFound();
  const etag = `"${createHash("sha256").update(data).digest("base64url").slice(0, 27)}"`;
  // A key never gets new content, so browsers and CDNs may keep it for good.
  const headers = { "Cache-Control": "public, max-age=31536000, immutable", ETag: etag };
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(new Uint8Array(data), {
    headers: { ...headers, "Content-Type": "image/webp", "Content-Length": String(data.length) },
  });
}
