/**
 * Text as the scam signals read it (ADR 077): the ad and the phrase lists go
 * through the same normalisation, so 'E Z C A S H', 'eᴢ-cash', 'еzсаsh'
 * (Cyrillic), 'ez\u200Bcash' and '3z c4sh' all read 'ez cash', while Sinhala
 * and Tamil keep their vowel signs.
 */

/** Characters that show nothing: zero-width spaces and joiners, soft hyphens, direction marks, variation selectors. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
/** Accents on Latin letters (é, ā): Sinhala and Tamil signs lie outside this block. */
const LATIN_ACCENTS = /[\u0300-\u036F]/gu;
/** Apostrophes inside a word go: "don't" reads "dont", "i'm" reads "im". */
const APOSTROPHE = /(?<=\p{L})['’`´ʼ](?=\p{L})/gu;
/** '@' and '$' standing for letters inside a Latin word ('c@sh', 'ca$h'). */
const SYMBOL_LETTER = /(?<=[a-z])[@$]|[@$](?=[a-z])/gu;
/** A sentence ends at . ! ? ; followed by a space or the end (so 'e.z.c.a.s.h' stays one), or at a line break. */
const SENTENCE_END = /[.!?;]+(?=\s|$)|\n+/u;
/** Abbreviations whose full stop ends no sentence ('Rs. 10,000', 'රු. 10,000', 'No. 12'). */
const ABBREVIATION = /(?<![\p{L}\p{M}])(rs|lkr|no|mr|mrs|dr|st|ltd|රු|ரூ)\./gu;
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/u;
const LATIN = /[a-z]/;

/** Cyrillic and Greek letters that look like Latin ones, and a few others. */
const LOOKALIKES: Record<string, string> = {
  а: "a",
  в: "b",
  е: "e",
  ё: "e",
  і: "i",
  ї: "i",
  ј: "j",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  п: "n",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  ѕ: "s",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  һ: "h",
  ɡ: "g",
  α: "a",
  β: "b",
  γ: "y",
  ε: "e",
  η: "n",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ω: "w",
  ı: "i",
  ł: "l",
  ø: "o",
  "@": "a",
  $: "s",
};
const LOOKALIKE = new RegExp(`[${Object.keys(LOOKALIKES).join("").replace("$", "\\$")}]`, "gu");

/** Digits standing for letters, read so only inside a word with Latin letters ('c4sh'; never in '10000'). */
const DIGIT_LETTERS: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b" };

/** Case, compatibility forms (full-width, bold maths letters), invisible characters, accents and lookalikes. */
export function normaliseText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(LATIN_ACCENTS, "")
    .normalize("NFKC")
    .toLowerCase()
    .replace(INVISIBLE, "")
    .replace(APOSTROPHE, "")
    .replace(SYMBOL_LETTER, (c) => LOOKALIKES[c] ?? c)
    .replace(LOOKALIKE, (c) => LOOKALIKES[c] ?? c);
}

/** One sentence's words; `joined[i]` is true where spaced-out letters ('e z c a s h') were put back together. */
export type Sentence = { words: string[]; joined: boolean[] };

function readWord(word: string): string {
  if (!LATIN.test(word)) return word;
  return word.replace(/[0-9]/g, (d) => DIGIT_LETTERS[d] ?? d);
}

/** A single Latin letter, or a digit standing for one, as in 'e z c 4 s h'. */
function isSpacedLetter(word: string): boolean {
  return word.length === 1 && (LATIN.test(word) || word in DIGIT_LETTERS);
}

/** Joins runs of two or more spaced-out letters (with at least two real letters) into one word. */
function joinSpacedLetters(words: string[]): Sentence {
  const out: Sentence = { words: [], joined: [] };
  let i = 0;
  while (i < words.length) {
    let j = i;
    while (j < words.length && isSpacedLetter(words[j])) j++;
    const run = words.slice(i, j);
    if (run.length >= 2 && run.filter((w) => LATIN.test(w)).length >= 2) {
      out.words.push(readWord(run.join("")));
      out.joined.push(true);
      i = j;
    } else {
      out.words.push(readWord(words[i]));
      out.joined.push(false);
      i += 1;
    }
  }
  return out;
}

/** The text's sentences, each a list of normalised words. */
export function readSentences(text: string): Sentence[] {
  return normaliseText(text)
    .replace(ABBREVIATION, "$1 ")
    .split(SENTENCE_END)
    .map((part) => joinSpacedLetters(part.split(NOT_WORD).filter((w) => w !== "")))
    .filter((s) => s.words.length > 0);
}

/** A phrase as words, normalised like the text. */
export function phraseWords(phrase: string): string[] {
  return normaliseText(phrase)
    .split(NOT_WORD)
    .filter((w) => w !== "")
    .map(readWord);
}

/** Where a phrase was found in a sentence: words start..end-1, and what they say. */
export type Found = { start: number; end: number; text: string };

/**
 * Every place `phrase` (from phraseWords) stands in the sentence: its words
 * in a row, the last one allowed to go on ('advance' finds 'advanced'); or,
 * in spaced-out letters put back together, anywhere inside them.
 */
export function findPhrase(sentence: Sentence, phrase: readonly string[]): Found[] {
  const { words, joined } = sentence;
  const found: Found[] = [];
  const last = phrase.length - 1;
  const compact = phrase.join("");
  for (let i = 0; i < words.length; i++) {
    if (joined[i] && words[i].includes(compact)) {
      found.push({ start: i, end: i + 1, text: phrase.join(" ") });
      continue;
    }
    if (i + last >= words.length) continue;
    let k = 0;
    while (k < last && words[i + k] === phrase[k]) k++;
    if (k === last && words[i + last].startsWith(phrase[last]))
      found.push({ start: i, end: i + last + 1, text: words.slice(i, i + last + 1).join(" ") });
  }
  return found;
}

/** True for English and romanised phrases (whole words); Sinhala and Tamil negations are found inside words too. */
export function isLatinPhrase(phrase: readonly string[]): boolean {
  return phrase.some((w) => LATIN.test(w));
}
