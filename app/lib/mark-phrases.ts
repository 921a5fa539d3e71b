/**
 * Splits `text` into the parts that are one of `phrases` (case-insensitive,
 * the longest first where they overlap) and the parts between, so that a
 * moderator sees where the scam rules' phrases stand in the description (ADR 078).
 */
export type MarkedPart = { text: string; marked: boolean };

const literal = (phrase: string) => phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function markPhrases(text: string, phrases: readonly string[]): MarkedPart[] {
  const wanted = [...new Set(phrases.map((p) => p.trim()).filter(Boolean))].sort((a, b) => b.length - a.length);
  if (wanted.length === 0) return text ? [{ text, marked: false }] : [];
  const pattern = new RegExp(`(${wanted.map(literal).join("|")})`, "giu");
  // split with a capturing group puts each match at an odd index.
  return text
    .split(pattern)
    .map((part, index) => ({ text: part, marked: index % 2 === 1 }))
    .filter((part) => part.text !== "");
}
