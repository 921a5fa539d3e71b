/**
 * Request body caps, checked from Content-Length before anything reads the
 * body. Forms and JSON are small; multipart (listing form with photos,
 * uploads) keeps the routes' own per-file caps under one overall cap.
 */
export const MAX_BODY_BYTES = 64 * 1024;
export const MAX_MULTIPART_BYTES = 20 * 1024 * 1024;

export type BodyLimitVerdict =
  | { ok: true }
  | { ok: false; status: 411 | 413 | 415; limit?: number; reason?: "multipart" };

/** The JSON API and its compatible aliases (app/routes.ts): they read JSON or nothing, not forms, and answer JSON. */
const API_PATHS = [
  /^\/api\//,
  /^\/updateViewCount$/,
  /^\/getAdsForSEO$/,
  /^\/getAdForSEO\//,
  /^\/getAdsByUniversity\//,
];

export function isApiPath(path: string): boolean {
  return API_PATHS.some((p) => p.test(path));
}

/**
 * Where files go, the only places a multipart body is accepted: the listing
 * form (new and edit: its photos, also without JavaScript) and the photo
 * upload. Also as React Router's data requests (`/x.data`, `/x/_.data`).
 * Everywhere else a multipart body is refused before it is read: parsing
 * one costs memory and CPU, and no other form has a file to send (issue 9).
 */
const MULTIPART_PATHS = [
  /^\/dashboard\/listings\/new$/,
  /^\/dashboard\/listings\/[^/]+\/edit$/,
  /^\/dashboard\/photos$/,
];

export function acceptsMultipart(path: string): boolean {
  const route = path.replace(/(\/_)?\.data$/, "").replace(/\/$/, "");
  return MULTIPART_PATHS.some((p) => p.test(route));
}

function isFormType(contentType: string): boolean {
  const [mime, ...params] = contentType
    .toLowerCase()
    .split(";")
    .map((p) => p.trim());
  if (mime === "application/x-www-form-urlencoded") return true;
  return mime === "multipart/form-data" && params.some((p) => /^boundary=.+/.test(p));
}

export type BodyHeaders = {
  path?: string;
  contentLength?: string | null;
  contentType?: string | null;
  transferEncoding?: string | null;
};

export function checkBody(method: string, headers: BodyHeaders): BodyLimitVerdict {
  const verb = method.toUpperCase();
  if (verb === "GET" || verb === "HEAD") return { ok: true };
  // Page actions read forms: anything else would fail inside request.formData() as a 500.
  if (!isApiPath(headers.path ?? "")) {
    const hasBody = Number(headers.contentLength ?? 0) > 0 || !!headers.transferEncoding;
    if (headers.contentType ? !isFormType(headers.contentType) : hasBody) return { ok: false, status: 415 };
  }
  const multipart = (headers.contentType ?? "").toLowerCase().trimStart().startsWith("multipart/");
  if (multipart && !acceptsMultipart(headers.path ?? "")) return { ok: false, status: 415, reason: "multipart" };
  const limit = multipart ? MAX_MULTIPART_BYTES : MAX_BODY_BYTES;
  const declared = headers.contentLength;
  if (declared === undefined || declared === null || declared === "") {
    // A streamed (chunked) body cannot be measured before it is read: browsers
    // always declare the length, so one that does not is refused up front.
    return headers.transferEncoding ? { ok: false, status: 411 } : { ok: true };
  }
  if (!/^\d+$/.test(declared)) return { ok: false, status: 411 };
  return Number(declared) > limit ? { ok: false, status: 413, limit } : { ok: true };
}
