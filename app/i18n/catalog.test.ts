import fs from "node:fs";
import path from "node:path";
import { setupI18n } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { describe, expect, it } from "vitest";
import { Catalog, type CompiledMessage, type Messages, render } from "./catalog";
import { readCatalogue } from "./catalogue-plugin";

// ADR 037: our interpreter of compiled messages must say exactly what Lingui's
// runtime (@lingui/core, kept as a devDependency for this test) says, for every
// message of every catalogue, with numbers that pick every plural category.

const i18nDir = path.resolve(__dirname);
const languages = fs
  .readdirSync(i18nDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const COUNTS = [0, 1, 2, 3, 4, 5, 11, 21, 22, 100, 1000, 12345];

/** The names a compiled message reads, and which of them are counts. */
function argumentsOf(message: CompiledMessage, out = new Map<string, "count" | "text">()) {
  if (typeof message === "string") return out;
  for (const part of message) {
    if (typeof part === "string") continue;
    if (part.length === 1) {
      if (!out.has(part[0])) out.set(part[0], "text");
      continue;
    }
    out.set(part[0], part[1] === "plural" ? "count" : "text");
    // Lingui's compiled plural also carries `offset` (undefined: our messages use none).
    for (const inner of Object.values(part[2])) if (inner !== undefined) argumentsOf(inner, out);
  }
  return out;
}

describe("the message interpreter", () => {
  it("says what Lingui's runtime says, for every message in every language", () => {
    let checked = 0;
    for (const locale of languages) {
      const ours = new Catalog(locale);
      const lingui = setupI18n({ locale, messages: { [locale]: {} } });
      for (const area of fs.readdirSync(path.join(i18nDir, locale)).filter((f) => f.endsWith(".json"))) {
        // Lingui's type for a compiled message is wider (formats we do not use); the test shows they agree.
        const compiled: Messages = Object.fromEntries(
          Object.entries(readCatalogue(path.resolve(i18nDir, "../.."), locale, area.slice(0, -5))).map(([k, v]) => [
            k,
            compileMessage(v) as CompiledMessage,
          ]),
        );
        ours.load(locale, compiled);
        lingui.load(locale, compiled as never);
        for (const [key, message] of Object.entries(compiled)) {
          const names = [...argumentsOf(message)];
          for (const count of names.some(([, kind]) => kind === "count") ? COUNTS : [0]) {
            const values = Object.fromEntries(
              names.map(([name, kind]) => [name, kind === "count" ? count : `‹${name}›`]),
            );
            expect(ours._(key, values), `${locale} ${key} ${count}`).toBe(lingui._(key, values));
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("shows the key of a message that is not loaded, and an empty value as nothing", () => {
    const catalog = new Catalog("en");
    expect(catalog._("nowhere.key")).toBe("nowhere.key");
    catalog.load("en", { hello: compileMessage("Hi {name}!") as CompiledMessage });
    expect(catalog._("hello", {})).toBe("Hi !");
    expect(
      render(
        compileMessage("{n, plural, =0 {none} one {# room} other {# rooms}}") as CompiledMessage,
        { n: 1200 },
        "en",
      ),
    ).toBe("1,200 rooms");
  });
});
