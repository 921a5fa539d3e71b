const lkr = new Intl.NumberFormat("en-LK", { maximumFractionDigits: 0 });

/** 'LKR 15,000': the currency before the number, with thousands separators. */
export function formatLkr(amount: number): string {
  return `LKR ${lkr.format(amount)}`;
}

const shortDate = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "Asia/Colombo",
});

/** 'Nov 22, 2026' (short month, day, year), in Sri Lanka's time zone. */
export function formatShortDate(iso: string): string {
  return shortDate.format(new Date(iso));
}
