export type Pagination = {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
  /** False when counting stopped early: there are more than `total`, and the pages reach `total` (ADR 011). */
  totalIsExact: boolean;
};

export function paginate(page: number, limit: number, total: number, totalIsExact = true): Pagination {
  const totalPages = Math.ceil(total / limit);
  return { page, limit, total, totalPages, hasNext: page < totalPages, hasPrev: page > 1, totalIsExact };
}

export type PageItem = { type: "page"; page: number } | { type: "ellipsis"; key: string };

/**
 * Numbered pages with a window of 2 either side of the
 * current page, plus the first and the last, with ellipses for gaps.
 */
export function pageWindow(current: number, totalPages: number, radius = 2): PageItem[] {
  if (totalPages <= 1) return [];
  const pages = new Set<number>([1, totalPages]);
  for (let p = current - radius; p <= current + radius; p++) {
    if (p >= 1 && p <= totalPages) pages.add(p);
  }
  const sorted = [...pages].sort((a, b) => a - b);
  const items: PageItem[] = [];
  sorted.forEach((p, i) => {
    const prev = sorted[i - 1];
    if (prev !== undefined && p - prev > 1) items.push({ type: "ellipsis", key: `gap-${prev}-${p}` });
    items.push({ type: "page", page: p });
  });
  return items;
}
