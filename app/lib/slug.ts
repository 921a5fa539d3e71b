/**
 * SPEC.md section 3: the slug is the lowercased title with non-alphanumerics
 * removed, spaces turned into hyphens, then a hyphen and the ad number.
 * Titles with no Latin letters (Sinhala, Tamil) fall back to "listing".
 */
export function slugify(title: string, adNumber: number | string): string {
  const base = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9\s-]/g, "")
    .trim()
    .replace(/[\s-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return `${base || "listing"}-${adNumber}`;
}

/** The ad number at the end of a slug ("room-near-campus-1042" -> 1042), if any. */
export function adNumberFromSlug(slug: string): number | null {
  const match = /(?:^|-)(\d{1,12})$/.exec(slug);
  if (!match) return null;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
