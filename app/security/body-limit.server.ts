import { withoutLocale } from "~/i18n/locales";
import { LISTING_LIMITS } from "~/schemas/listing-form";

/**
 * Every request body cap, in one place (ADR 010). The security middleware
 * checks the first two from Content-Length before anything reads the body;
 * readBody() below enforces each reader's own while it reads.
 */
/** Any body that is not multipart: page forms and the JSON API. */
export const MAX_BODY_BYTES = 64 * 1024;
/** Any multipart body (the listing form with photos, the photo upload). */
export const MAX_MULTIPART_BYTES = 20 * 1024 * 1024;
/** The listing form: 3 photos under 5MB each plus the text fields, with room for multipart overhead. */
export const MAX_LISTING_FORM_BYTES = 16 * 1024 * 1024;
/** How the post and edit actions read the listing form (with its photos, also without JavaScript). */
export const LISTING_FORM_BODY = { maxBytes: MAX_LISTING_FORM_BYTES, kinds: ["multipart", "urlencoded"] } as const;
/** One photo upload: the browser sends resized JPEGs, but a client that does not resize may send up to 5MB; the rest is multipart overhead. */
export const MAX_PHOTO_UPLOAD_BYTES = LISTING_LIMITS.maxPhotoBytes + 1024 * 1024;
/** POST /updateViewCount's JSON ({"adId": …}). */
export const MAX_VIEW_COUNT_BYTES = 4096;

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
  const route = withoutLocale(path);
  return API_PATHS.some((p) => p.test(route));
}

/**
 * Where files go, the only places a multipart body is accepted: the listing
 * form (new and edit: its photos, also without JavaScript) and the photo
 * upload. Also as React Router's data requests (`/x.data`, `/x/_.data`).
 * Everywhere else a multipart body is refused before it is read: parsing
 * one costs memory and CPU, and no other form has a file to send (ADR 018).
 */
const MULTIPART_PATHS = [
  /^\/dashboard\/listings\/new$/,
  /^\/dashboard\/listings\/[^/]+\/edit$/,
  /^\/dashboard\/photos$/,
];

export function acceptsMultipart(path: string): boolean {
  // The same routes in Sinhala and Tamil (/si/..., /ta/...: ADR 033).
  const route = withoutLocale(path)
    .replace(/(\/_)?\.data$/, "")
    .replace(/\/$/, "");
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

/**
 * The listing page's contact links name the tap counter in their `ping` attribute (ADR 089):
 * browsers POST it the body "PING" as text/ping, which that route never reads.
 */
const PING_PATH = /^\/(?:(?:si|ta)\/)?listing\/[^/]+\/contact\/[a-z]+$/;

function isPing(contentType: string, path: string): boolean {
  return contentType.toLowerCase().split(";")[0].trim() === "text/ping" && PING_PATH.test(path);
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
    const { contentType } = headers;
    const accepted = contentType ? isFormType(contentType) || isPing(contentType, headers.path ?? "") : !hasBody;
    if (!accepted) return { ok: false, status: 415 };
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

export type BodyKind = "urlencoded" | "multipart" | "json";
type FormKind = Exclude<BodyKind, "json">;

export type ReadBody<T> = { ok: true; body: T } | { ok: false; problem: "tooLarge" | "unreadable" };

/**
 * The one body reader (ADR 010): reads at most `maxBytes` (a declared or
 * streamed larger body is refused before it is buffered whole) and parses it
 * as one of `kinds`. Forms go by their Content-Type; JSON is parsed whatever
 * the type says (the original view-count client sends none). A missing body
 * reads as an empty one.
 */
export async function readBody(
  request: Request,
  options: { maxBytes: number; kinds: readonly ["json"] },
): Promise<ReadBody<unknown>>;
export async function readBody(
  request: Request,
  options: { maxBytes: number; kinds: readonly FormKind[] },
): Promise<ReadBody<FormData>>;
export async function readBody(
  request: Request,
  { maxBytes, kinds }: { maxBytes: number; kinds: readonly BodyKind[] },
): Promise<ReadBody<unknown>> {
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) return { ok: false, problem: "tooLarge" };
  let bytes: Uint8Array<ArrayBuffer> | null;
  try {
    bytes = await readCapped(request, maxBytes);
  } catch {
    // The client went away mid-body.
    return { ok: false, problem: "unreadable" };
  }
  if (!bytes) return { ok: false, problem: "tooLarge" };
  const contentType = request.headers.get("content-type") ?? "";
  if (kinds.includes("json")) {
    try {
      return { ok: true, body: JSON.parse(new TextDecoder().decode(bytes)) as unknown };
    } catch {
      return { ok: false, problem: "unreadable" };
    }
  }
  const mime = contentType.split(";")[0].trim().toLowerCase();
  const kind =
    mime === "multipart/form-data" ? "multipart" : mime === "application/x-www-form-urlencoded" ? "urlencoded" : null;
  if (!kind || !kinds.includes(kind)) return { ok: false, problem: "unreadable" };
  try {
    return { ok: true, body: await new Response(bytes, { headers: { "content-type": contentType } }).formData() };
  } catch {
    // A malformed multipart body, for one.
    return { ok: false, problem: "unreadable" };
  }
}

/** The body's bytes, or null as soon as they pass the cap. */
async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
