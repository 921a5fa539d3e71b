import fs from "node:fs";
import path from "node:path";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { describe, expect, it } from "vitest";
import { areaKey, LOCALES, readCatalogue } from "./catalogue-plugin";

const root = path.resolve(__dirname, "../..");
const areaFiles = fs
  .readdirSync(path.join(root, "app/i18n/en"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.slice(0, -5));
const messages: Record<string, string> = Object.assign({}, ...areaFiles.map((a) => readCatalogue(root, "en", a)));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return p.includes(`${path.sep}i18n`) ? [] : sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}
const files = sourceFiles(path.join(root, "app")).map((p) => ({
  p: path.relative(root, p),
  src: fs.readFileSync(p, "utf8"),
}));

describe("message catalogues", () => {
  it("compile as ICU MessageFormat", () => {
    for (const [key, message] of Object.entries(messages)) {
      expect(() => compileMessage(message), key).not.toThrow();
    }
  });

  it("have every literal key the code uses", () => {
    const missing: string[] = [];
    for (const { p, src } of files) {
      for (const m of src.matchAll(/\bt\(\s*"([a-zA-Z]+\.[\w.]+)"/g)) {
        if (!(m[1] in messages)) missing.push(`${p}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("are imported by every module that uses their keys, so the browser has them", () => {
    const problems: string[] = [];
    // Models and migrations store and return keys, never text (ADR 028): they need no catalogue loaded.
    const translates = (p: string) => !["models", "db"].some((dir) => p.startsWith(`app${path.sep}${dir}${path.sep}`));
    for (const { p, src } of files.filter((f) => translates(f.p))) {
      for (const area of areaFiles.filter((a) => a !== "common")) {
        // A string literal counts when it is one of the area's keys or the start of some
        // (t, an alias, a key table, a template prefix); "listing.hide" as an audit action does not.
        const keys = Object.keys(readCatalogue(root, "en", area));
        const literals = [...src.matchAll(new RegExp(`["'\`](${areaKey(area)}\\.[\\w.-]*)`, "g"))].map((m) => m[1]);
        const usesArea = literals.some((literal) =>
          keys.some((key) => key === literal || key.startsWith(literal.endsWith(".") ? literal : `${literal}.`)),
        );
        // A module only ever rendered by a page that loaded the area may say so instead (ADR 091).
        const declared =
          src.includes(`import "virtual:catalogue/${area}";`) ||
          src.includes(`catalogue "${area}" comes with the page`);
        if (usesArea && !declared) problems.push(`${p} uses ${area}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("exist for every supported language", () => {
    for (const locale of LOCALES) {
      for (const area of areaFiles)
        expect(fs.existsSync(path.join(root, "app/i18n", locale, `${area}.json`))).toBe(true);
    }
  });

  it("keep the spec's exact texts", () => {
    expect(
      messages["listing.notFound.text"] ??
        Object.values(messages).find((m) => m.includes("doesn't exist or has been removed")),
    ).toBe("The listing you're looking for doesn't exist or has been removed.");
    expect(Object.values(messages)).toContain("No listings found");
    expect(Object.values(messages)).toContain("Try adjusting your search criteria or check back later.");
    expect(Object.values(messages)).toContain("Message Sent Successfully!");
  });
});
