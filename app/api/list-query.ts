import {
  API_DEFAULT_LIMIT,
  API_MAX_LIMIT,
  type BrowseFilters,
  type PathFilters,
  parseBrowseFilters,
} from "~/schemas/browse-filters";
import type { ApiError, ApiErrorDetail } from "./responses";

export type ListQuery = { filters: BrowseFilters; page: number; limit: number };

export type ListQueryResult = { ok: true; query: ListQuery } | { ok: false; error: ApiError };

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${API_MAX_LIMIT}`;

function parseLimit(raw: string | null, details: ApiErrorDetail[]): number {
  const value = raw?.trim() ?? "";
  if (value === "") return API_DEFAULT_LIMIT;
  const n = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= API_MAX_LIMIT)) {
    details.push({ param: "limit", message: LIMIT_MESSAGE });
    return API_DEFAULT_LIMIT;
  }
  return n;
}

/**
 * The list API's query: the browse filters plus page and limit. Unlike the
 * browse page (which ignores a bad value), the API refuses it with every
 * problem listed, so a client learns what to fix. A repeated parameter counts
 * once: the first value wins (URLSearchParams.get).
 */
export function parseListQuery(params: URLSearchParams, path: PathFilters = {}): ListQueryResult {
  const { filters, page, errors } = parseBrowseFilters(params, path);
  const details: ApiErrorDetail[] = [...errors];
  const limit = parseLimit(params.get("limit"), details);
  if (details.length > 0) {
    const label = details.length === 1 ? "Invalid query parameter" : "Invalid query parameters";
    return { ok: false, error: { error: `${label}: ${details.map((d) => d.message).join("; ")}`, details } };
  }
  return { ok: true, query: { filters, page, limit } };
}
