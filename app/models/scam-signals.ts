import {
  HOLD_AT,
  LOW_RENT_SHARE,
  NEGATION_AFTER,
  NEGATION_BEFORE,
  NEGATION_WINDOW,
  NOT_A_NEGATION,
  PAIR_WINDOW,
  PHRASE_RULES,
  type PhraseList,
  type PhraseRule,
  type ScamSignalId,
  SEVERAL_NEW_ACCOUNTS,
  SIGNAL_WEIGHTS,
} from "./scam-phrases";
import { type Found, findPhrase, isLatinPhrase, phraseWords, readSentences, type Sentence } from "./scam-text";

/**
 * The scam signals of a new or edited listing (ADR 077): phrases asking for
 * money before a viewing, money by eZ Cash or bank deposit, an owner abroad
 * or keys by post, no viewing possible (in English, Sinhala, Tamil and their
 * romanised spellings), a rent far below similar places, and a phone or
 * network several new accounts used within a day. A total of HOLD_AT or more
 * holds the listing for review; the price alone never does.
 */

/** The typical rent of similar places (ADR 048: same university and property type), as typicalRent gives it. */
export type TypicalRentRange = { low: number; high: number; count: number };

export type ScamCheckInput = {
  title: string;
  description: string;
  /** Monthly rent and key money in LKR. */
  rent: number;
  keyMoney: number | null;
  /** For the listing's university and property type; null with too few similar places to say. */
  typicalRent: TypicalRentRange | null;
  /** Accounts made within a day (the poster's included) that used the listing's phone, and the poster's network. */
  newAccounts: { onPhone: number; onNetwork: number };
};

export type PriceEvidence = {
  rent: number;
  keyMoney: number | null;
  typicalLow: number;
  typicalHigh: number;
  /** The middle of the typical range, which the rent is compared with. */
  typical: number;
  /** How far below `typical` the rent is, in whole percent. */
  percentBelow: number;
};

export type ScamSignal =
  | {
      id: "advance-before-viewing" | "money-transfer" | "owner-abroad" | "no-viewing";
      weight: number;
      phrases: string[];
    }
  | { id: "low-rent"; weight: number; price: PriceEvidence }
  | { id: "shared-phone-or-network"; weight: number; accounts: { onPhone: number; onNetwork: number } };

export type ScamScore = { score: number; holdAt: number; held: boolean; signals: ScamSignal[] };

type WordLists = readonly (readonly string[])[];
type ReadyRule = {
  direct: WordLists;
  pair?: readonly [WordLists, WordLists];
  pairBrokenBy?: WordLists;
  cancelledInSentenceBy?: WordLists;
  exceptions?: WordLists;
  negatable: boolean;
};

const words = (list: PhraseList): WordLists => Object.values(list).flat().map(phraseWords);
const wordsOrNone = (list: PhraseList | undefined) => (list ? words(list) : undefined);

function ready(rule: PhraseRule): ReadyRule {
  return {
    direct: words(rule.direct),
    pair: rule.pair ? [words(rule.pair[0]), words(rule.pair[1])] : undefined,
    pairBrokenBy: wordsOrNone(rule.pairBrokenBy),
    cancelledInSentenceBy: wordsOrNone(rule.cancelledInSentenceBy),
    exceptions: wordsOrNone(rule.exceptions),
    negatable: rule.negatable,
  };
}

const RULES = Object.entries(PHRASE_RULES).map(([id, rule]) => ({ id: id as ScamSignalId, rule: ready(rule) }));
const BEFORE = new Set(NEGATION_BEFORE.map((w) => phraseWords(w).join(" ")));
const AFTER = words(NEGATION_AFTER);
const NOT_NEGATIONS = new Set(NOT_A_NEGATION.map((w) => phraseWords(w).join(" ")));

function findAny(sentence: Sentence, lists: WordLists): Found[] {
  return lists.flatMap((phrase) => findPhrase(sentence, phrase));
}

/** 'no advance', 'never pay', or 'advance ona naha', 'அனுப்ப வேண்டாம்'. */
function isNegated(sentence: Sentence, found: Found): boolean {
  const { words: ws } = sentence;
  for (let i = Math.max(0, found.start - NEGATION_WINDOW); i < found.start; i++) if (BEFORE.has(ws[i])) return true;
  const after: Sentence = {
    words: ws.slice(found.end, found.end + NEGATION_WINDOW).map((w) => (NOT_NEGATIONS.has(w) ? "" : w)),
    joined: sentence.joined.slice(found.end, found.end + NEGATION_WINDOW),
  };
  return AFTER.some((negation) =>
    isLatinPhrase(negation)
      ? findPhrase(after, negation).length > 0
      : after.words.some((w) => w.includes(negation.join(" "))),
  );
}

/** The two halves of a pair, near enough and with no contact word ('call') between them. */
function pairs(sentence: Sentence, rule: ReadyRule, keep: (f: Found) => boolean): string[] {
  if (!rule.pair) return [];
  if (rule.cancelledInSentenceBy && findAny(sentence, rule.cancelledInSentenceBy).length > 0) return [];
  const firsts = findAny(sentence, rule.pair[0]).filter(keep);
  const seconds = findAny(sentence, rule.pair[1]).filter(keep);
  const breaks = rule.pairBrokenBy ? findAny(sentence, rule.pairBrokenBy) : [];
  const texts: string[] = [];
  for (const a of firsts)
    for (const b of seconds) {
      const [left, right] = a.start < b.start ? [a, b] : [b, a];
      const gap = right.start - left.end;
      if (gap < 0 || gap > PAIR_WINDOW) continue;
      if (breaks.some((x) => x.start >= left.end && x.end <= right.start)) continue;
      texts.push(`${left.text} … ${right.text}`);
    }
  return texts;
}

function phrasesFound(sentences: Sentence[], rule: ReadyRule): string[] {
  const found = new Set<string>();
  for (const sentence of sentences) {
    const keep = (f: Found) => !(rule.negatable && isNegated(sentence, f));
    const exceptions = rule.exceptions ? findAny(sentence, rule.exceptions) : [];
    for (const f of findAny(sentence, rule.direct))
      if (keep(f) && !exceptions.some((x) => x.start === f.start)) found.add(f.text);
    for (const text of pairs(sentence, rule, keep)) found.add(text);
  }
  return [...found];
}

function lowRent(input: ScamCheckInput): PriceEvidence | null {
  const range = input.typicalRent;
  if (!range || input.rent <= 0) return null;
  const typical = Math.round((range.low + range.high) / 2);
  // A low rent balanced by key money paid up front (a year's worth) is how honest owners price too.
  const monthly = input.rent + (input.keyMoney ?? 0) / 12;
  if (monthly > typical * LOW_RENT_SHARE) return null;
  return {
    rent: input.rent,
    keyMoney: input.keyMoney,
    typicalLow: range.low,
    typicalHigh: range.high,
    typical,
    percentBelow: Math.round((1 - input.rent / typical) * 100),
  };
}

/** Scores a listing's text, price and poster's account facts (ADR 077). Pure: the caller gathers the facts. */
export function scoreListing(input: ScamCheckInput): ScamScore {
  const sentences = readSentences(`${input.title}\n${input.description}`);
  const signals: ScamSignal[] = [];
  for (const { id, rule } of RULES) {
    const phrases = phrasesFound(sentences, rule);
    if (phrases.length > 0)
      signals.push({
        id: id as Exclude<ScamSignalId, "low-rent" | "shared-phone-or-network">,
        weight: SIGNAL_WEIGHTS[id],
        phrases,
      });
  }
  const price = lowRent(input);
  if (price) signals.push({ id: "low-rent", weight: SIGNAL_WEIGHTS["low-rent"], price });
  const { onPhone, onNetwork } = input.newAccounts;
  if (Math.max(onPhone, onNetwork) >= SEVERAL_NEW_ACCOUNTS)
    signals.push({
      id: "shared-phone-or-network",
      weight: SIGNAL_WEIGHTS["shared-phone-or-network"],
      accounts: { onPhone, onNetwork },
    });
  const score = signals.reduce((sum, s) => sum + s.weight, 0);
  // The price alone never holds a listing, whatever the weights say.
  const held = score >= HOLD_AT && signals.some((s) => s.id !== "low-rent");
  return { score, holdAt: HOLD_AT, held, signals };
}
