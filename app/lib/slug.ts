import { textLanguage } from "~/lib/text-language";

/**
 * The slug is the lowercased title with non-alphanumerics
 * removed, spaces turned into hyphens, then a hyphen and the ad number.
 * A title written mostly in Sinhala or Tamil, or with no Latin letters, falls
 * back to "listing": its few Latin words ('A/C') or digits would not say what
 * the listing is (ADR 029; the ad number finds it either way).
 */
export function slugify(title: string, adNumber: number | string): string {
  const base = textLanguage(title) === "en" ? latinSlug(title) : "";
  return `${/[a-z]/.test(base) ? base : "listing"}-${adNumber}`;
}

/** The title's Latin letters and digits, accents dropped, words joined by hyphens, at most 80 characters. */
function latinSlug(title: string): string {
  return title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9\s-]/g, "")
    .trim()
    .replace(/[\s-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}

/** Ad numbers are listings' ids: PostgreSQL integers, so larger numbers name no listing (and must not reach a query). */
export const MAX_AD_NUMBER = 2_147_483_647;

/** An ad number written in digits ("1042"), or null when it is not one any listing could have. */
export function parseAdNumber(value: string | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= MAX_AD_NUMBER ? n : null;
}

/** The ad number at the end of a slug ("room-near-campus-1042" -> 1042), if any. */
export function adNumberFromSlug(slug: string): number | null {
  const match = /(?:^|-)(\d+)$/.exec(slug);
  return match ? parseAdNumber(match[1]) : null;
}
