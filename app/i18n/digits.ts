/**
 * A whole number in Latin digits with the language's digit groups, exactly as `Intl.NumberFormat`
 * writes it for our languages ('1,234,567'; in Tamil '12,34,567', the Indian grouping), or undefined
 * when `value` is not a safe whole number (the caller asks Intl then).
 *
 * Why not Intl: a page's first `Intl.NumberFormat` (or `toLocaleString`) costs the browser 12–20 ms of
 * a desktop core while it hydrates, in every page it loads (ICU's number data, set up again for each
 * document), and several times that on the phones students use (ADR 115). digits.test.ts compares
 * this with Intl for every language.
 */
export function groupDigits(value: number, locale: string): string | undefined {
  if (!Number.isSafeInteger(value)) return undefined;
  // Intl writes minus zero (-0.4 rounded) as "-0".
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  // A comma before the last three digits and before each group of three, or in Tamil of two, before them.
  return (
    sign + String(Math.abs(value)).replace(locale.startsWith("ta") ? /\B(?=(\d\d)*\d{3}$)/g : /\B(?=(\d{3})+$)/g, ",")
  );
}

/** `value` rounded to a whole number half away from zero, as Intl rounds with no fraction digits. */
export function roundHalfAway(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}
