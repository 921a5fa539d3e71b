/**
 * The language of a listing's own text, told by its script: owners write in
 * Sinhala, Tamil or English (ADR 029). Sinhala and Tamil each have a script
 * of their own; any other letters are taken for English.
 */
export type TextLanguage = "si" | "ta" | "en";

const SINHALA = { first: 0x0d80, last: 0x0dff };
const TAMIL = { first: 0x0b80, last: 0x0bff };
const LETTER = /\p{L}/u;

/** The script most of the text is written in: Sinhala 'si', Tamil 'ta', else 'en'. */
export function textLanguage(text: string): TextLanguage {
  let sinhala = 0;
  let tamil = 0;
  let other = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= SINHALA.first && code <= SINHALA.last) sinhala++;
    else if (code >= TAMIL.first && code <= TAMIL.last) tamil++;
    else if (LETTER.test(char)) other++;
  }
  if (sinhala > other && sinhala >= tamil) return "si";
  if (tamil > other) return "ta";
  return "en";
}

/**
 * The `lang` attribute for an element holding the text: its language when that
 * differs from the page's (so a screen reader switches voice), else null.
 */
export function langAttribute(text: string, pageLanguage: string): TextLanguage | null {
  const language = textLanguage(text);
  return language === pageLanguage ? null : language;
}
