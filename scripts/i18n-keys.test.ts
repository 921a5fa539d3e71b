import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { type KeysBelow, type MessageKey, t } from "../app/i18n";
import { englishKeys, KEYS_FILE, keysSource, staleMessage } from "./i18n-keys";

describe("typed message keys (ADR 028)", () => {
  it("keys.generated.ts is up to date with the English catalogues (npm run i18n:keys writes it)", () => {
    expect(fs.readFileSync(KEYS_FILE, "utf8")).toBe(keysSource());
  });

  it("--check names the file and the command that fixes it when the file is stale", () => {
    expect(staleMessage(keysSource(), keysSource())).toBeNull();
    const stale = keysSource(englishKeys().slice(1));
    expect(staleMessage(stale, keysSource())).toMatch(
      /app\/i18n\/keys\.generated\.ts is out of date .*npm run i18n:keys/,
    );
  });

  it("lists every English key once", () => {
    const keys = englishKeys();
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain("report.autoHide.reason");
  });

  it("a misspelt or missing key fails the type check", () => {
    // @ts-expect-error: "report.autoHide.reasons" is no key of the catalogues
    expect(t("report.autoHide.reasons")).toBe("report.autoHide.reasons");
    // @ts-expect-error: a key is never any string
    const anyText: MessageKey = "Hidden automatically";
    expect(anyText).toBeTypeOf("string");
    const field: KeysBelow<"report.form"> = "email";
    // @ts-expect-error: no report.form.phone in the catalogue
    const missing: KeysBelow<"report.form"> = "phone";
    expect([field, missing]).toEqual(["email", "phone"]);
  });
});
