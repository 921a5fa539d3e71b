/**
 * What a student pays before moving in (ADR 047): key money, a refundable
 * deposit and the months of rent asked in advance. Unknown (null) until the
 * owner states the advance, since without it any total would be a guess;
 * key money and a deposit left empty are none.
 */
export type MoveInCost = {
  total: number;
  keyMoney: number;
  deposit: number;
  advanceMonths: number;
  /** advanceMonths × the monthly rent. */
  advance: number;
};

export type MoveInTerms = {
  price: number;
  keymoneyFee: number | null;
  deposit: number | null;
  advanceMonths: number | null;
};

export function moveInCost({ price, keymoneyFee, deposit, advanceMonths }: MoveInTerms): MoveInCost | null {
  if (advanceMonths === null) return null;
  const keyMoney = keymoneyFee ?? 0;
  const refundable = deposit ?? 0;
  const advance = advanceMonths * price;
  return { total: keyMoney + refundable + advance, keyMoney, deposit: refundable, advanceMonths, advance };
}
