import fs from "node:fs";
import path from "node:path";
import { type CompiledMessage, compileMessageOrThrow } from "@lingui/message-utils/compileMessage";
import { describe, expect, it } from "vitest";
import { readCatalogue } from "./catalogue-plugin";

/**
 * Every translation (each folder of app/i18n other than en) has exactly the English keys,
 * each message with the same ICU arguments, tags and plural/select categories, and no
 * message left in English (docs/i18n.md, "Quality"; glossary in docs/i18n-glossary.md).
 */
const root = path.resolve(__dirname, "../..");
const i18nDir = path.join(root, "app/i18n");

/** Parts of an English message that stay as they are in every language. */
const UNTRANSLATED_NAMES = ["Bodima", "LKR", "WhatsApp", "Viber", "Google Maps", "reCAPTCHA", "SLIIT", "KDU"];

/**
 * Keys whose value may equal the English although the English has words, with the reason.
 * Values that are only placeholders, numbers, punctuation, brand names, emails or URLs
 * (a phone number, "{current} / {total}") need no entry.
 */
const SAME_AS_ENGLISH: Record<string, string> = {};

const translations = fs
  .readdirSync(i18nDir, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== "en" && /^[a-z]{2,3}(-[A-Z]{2})?$/.test(e.name))
  .map((e) => e.name)
  .sort();

function areasOf(locale: string): string[] {
  return fs
    .readdirSync(path.join(i18nDir, locale))
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .sort();
}

const englishAreas = areasOf("en");

function readLocale(locale: string, areas: string[]): Record<string, string> {
  return Object.assign({}, ...areas.map((area) => readCatalogue(root, locale, area)));
}

const english = readLocale("en", englishAreas);

type Shape = { args: string[]; tags: string[]; choices: string[] };

/** What a translation must keep: argument names, tags, and each plural/select with its categories. */
function shapeOf(message: string): Shape {
  const args = new Set<string>();
  const tags = new Set<string>();
  const choices: string[] = [];
  const walk = (tokens: CompiledMessage) => {
    for (const token of tokens) {
      if (typeof token === "string") {
        for (const m of token.matchAll(/<(\/?[\w-]+)>/g)) tags.add(`<${m[1]}>`);
        continue;
      }
      const [name, type, format] = token;
      args.add(type && !["plural", "select", "selectordinal"].includes(type) ? `${name}, ${type}` : name);
      if (type && format && typeof format === "object") {
        const branches = format as Record<string, CompiledMessage>;
        const categories = Object.keys(branches)
          .filter((k) => k !== "offset")
          .sort();
        choices.push(`${name}, ${type}: ${categories.join(" ")}`);
        for (const category of categories) walk(branches[category]);
      }
    }
  };
  walk(compileMessageOrThrow(message));
  return { args: [...args].sort(), tags: [...tags].sort(), choices: choices.sort() };
}

/** True when the English has no words to translate, only names, numbers, placeholders, emails or URLs. */
function hasNothingToTranslate(message: string): boolean {
  let text = compileMessageOrThrow(message)
    .filter((token): token is string => typeof token === "string")
    .join(" ")
    .replace(/<\/?[\w-]+>/g, " ")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/\S+@\S+\.\S+/g, " ");
  for (const name of UNTRANSLATED_NAMES) text = text.replaceAll(name, " ");
  return !/\p{L}/u.test(text);
}

describe("translations", () => {
  it("are the locale folders next to en", () => {
    expect(translations).not.toContain("en");
    expect(englishAreas.length).toBeGreaterThan(0);
  });

  it("allow English only where listed with a reason", () => {
    for (const [key, reason] of Object.entries(SAME_AS_ENGLISH)) {
      expect(english[key], key).toBeTypeOf("string");
      expect(reason.length, key).toBeGreaterThan(10);
    }
  });

  describe.each(translations)("%s", (locale) => {
    const areas = areasOf(locale);

    it("have one file per English file", () => {
      expect(areas).toEqual(englishAreas);
    });

    const messages = readLocale(
      locale,
      areas.filter((area) => englishAreas.includes(area)),
    );

    it("have every English key and no other", () => {
      const missing = Object.keys(english).filter((key) => !(key in messages));
      const extra = Object.keys(messages).filter((key) => !(key in english));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it("keep each message's placeholders, tags and plural categories", () => {
      const problems: string[] = [];
      for (const [key, source] of Object.entries(english)) {
        if (!(key in messages)) continue;
        let translated: Shape;
        try {
          translated = shapeOf(messages[key]);
        } catch (error) {
          problems.push(`${key}: does not compile (${String(error)})`);
          continue;
        }
        const expected = shapeOf(source);
        for (const part of ["args", "tags", "choices"] as const) {
          if (translated[part].join(" | ") !== expected[part].join(" | "))
            problems.push(
              `${key}: ${part} ${JSON.stringify(translated[part])}, English ${JSON.stringify(expected[part])}`,
            );
        }
      }
      expect(problems).toEqual([]);
    });

    it("leave no message in English", () => {
      const untranslated = Object.entries(english)
        .filter(([key, source]) => messages[key] === source)
        .filter(([key, source]) => !(key in SAME_AS_ENGLISH) && !hasNothingToTranslate(source))
        .map(([key, source]) => `${key}: ${source}`);
      expect(untranslated).toEqual([]);
    });
  });
});
