/**
 * JSON answers shared by every API route: one error shape
 * ({ error, details? }) and the caching rules.
 */
export type ApiErrorDetail = { param: string; message: string };
export type ApiError = { error: string; details?: ApiErrorDetail[] };

/** Lists change often but not by the second; a minute of caching spares the database. */
export const LIST_CACHE_CONTROL = "public, max-age=60";
/** The directory and the API description change only with a release. */
export const STATIC_CACHE_CONTROL = "public, max-age=3600";
const NO_STORE = "no-store";

export function jsonResponse(
  body: unknown,
  init: { status?: number; cacheControl?: string; headers?: HeadersInit } = {},
): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", init.cacheControl ?? NO_STORE);
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers });
}

export function errorResponse(status: number, body: ApiError): Response {
  return jsonResponse(body, { status });
}

/** For POST/PUT/PATCH/DELETE on a read-only resource. */
export function methodNotAllowed(request: Request, allow: readonly string[] = ["GET", "HEAD"]): Response {
  return jsonResponse(
    { error: `Method ${request.method} is not allowed here. Allowed: ${allow.join(", ")}.` } satisfies ApiError,
    { status: 405, headers: { Allow: allow.join(", ") } },
  );
}
