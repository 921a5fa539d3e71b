/**
 * The messages of each language and the small interpreter that turns one into
 * text (ADR 037). The catalogues are compiled at build time by Lingui's
 * `compileMessage` (catalogue-plugin.ts), so at run time a message is already
 * a list of parts: text, a value by name, or a plural (or select) whose cases
 * are messages again, with `#` standing for the number. That is all our ICU
 * messages use; this replaces `@lingui/core` on the server and in the browser,
 * where its runtime cost 2.6 KB of the 120 KB first-load budget.
 */
import { groupDigits } from "./digits";

export type CompiledMessage = string | CompiledPart[];
export type CompiledPart =
  | string
  | [name: string]
  | [name: string, type: "plural" | "select", cases: Record<string, CompiledMessage>];
export type Messages = Record<string, CompiledMessage>;

const plurals = new Map<string, Intl.PluralRules>();
const numbers = new Map<string, Intl.NumberFormat>();

function cached<T>(cache: Map<string, T>, locale: string, make: (locale: string) => T): T {
  let value = cache.get(locale);
  if (!value) {
    value = make(locale);
    cache.set(locale, value);
  }
  return value;
}

/** A compiled message with its values, in `locale` (plural rules and the number for `#`). */
export function render(
  message: CompiledMessage,
  values: Record<string, unknown>,
  locale: string,
  count?: number,
): string {
  if (typeof message === "string") return message;
  let text = "";
  for (const part of message) {
    if (typeof part === "string") {
      text +=
        part === "#" && count !== undefined
          ? (groupDigits(count, locale) ?? cached(numbers, locale, (l) => new Intl.NumberFormat(l)).format(count))
          : part;
      continue;
    }
    if (part.length === 1) {
      const value = values[part[0]];
      if (value !== undefined && value !== null) text += String(value);
      continue;
    }
    const [name, type, cases] = part;
    if (type === "plural") {
      const n = Number(values[name]);
      const rule = cached(plurals, locale, (l) => new Intl.PluralRules(l)).select(n);
      text += render(cases[String(n)] ?? cases[rule] ?? cases.other, values, locale, n);
    } else {
      text += render(cases[String(values[name])] ?? cases.other, values, locale, count);
    }
  }
  return text;
}

/** One language's messages at a time, as Lingui's `I18n` was used: load, activate, translate. */
export class Catalog {
  locale: string;
  private readonly byLocale = new Map<string, Messages>();

  constructor(locale: string) {
    this.locale = locale;
  }

  /** The active language's messages. */
  get messages(): Messages {
    return this.byLocale.get(this.locale) ?? {};
  }

  /** Adds messages of a language (an area at a time: later areas join the earlier ones). */
  load(locale: string, messages: Messages): void {
    this.byLocale.set(locale, { ...this.byLocale.get(locale), ...messages });
  }

  activate(locale: string): void {
    this.locale = locale;
  }

  /** The message `id` in the active language; a message not loaded shows its key. */
  _(id: string, values: Record<string, unknown> = {}): string {
    const message = this.messages[id];
    return message === undefined ? id : render(message, values, this.locale);
  }
}
