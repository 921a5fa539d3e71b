import "virtual:catalogue/common";
import { i18n } from "./instance";
import type { MessageKey } from "./keys.generated";

/**
 * All UI text comes from message catalogues (app/i18n/<lang>/<area>.json, ICU
 * MessageFormat, compiled at build time by Lingui). English is the only
 * language for now; Sinhala (si) and Tamil (ta) add a folder each.
 *
 * A module that uses keys of an area other than `common` imports that area once:
 *   import "virtual:catalogue/browse";
 * (checked by app/i18n/catalogue.test.ts).
 */
export type MessageValues = Record<string, unknown>;
export type { MessageKey };

/** What follows `Prefix.` in the keys below it: `KeysBelow<"report.form">` is "name" | "email" | ... */
export type KeysBelow<Prefix extends string> = MessageKey extends infer Key
  ? Key extends `${Prefix}.${infer Rest}`
    ? Rest
    : never
  : never;

/** Turns a message key and its values into text in one language (today English). */
export type Translator = (key: MessageKey, values?: MessageValues) => string;

export function t(key: MessageKey, values?: MessageValues): string {
  return i18n._(key, values);
}

/**
 * Child keys below a prefix, in catalogue order (numeric keys sorted as
 * numbers): for list-like content such as policy sections.
 */
export function childKeys(prefix: string): string[] {
  const seen: string[] = [];
  const start = `${prefix}.`;
  for (const key of Object.keys(i18n.messages)) {
    if (!key.startsWith(start)) continue;
    const child = key.slice(start.length).split(".")[0];
    if (!seen.includes(child)) seen.push(child);
  }
  return seen.every((k) => /^\d+$/.test(k)) ? seen.sort((a, b) => Number(a) - Number(b)) : seen;
}

/** The component-side entry point, kept hook-shaped so a language switch can re-render later. */
export function useTranslation(): { t: typeof t } {
  return { t };
}

export { i18n };
