import { describe, expect, it } from "vitest";
import { putStylesheetBack, STYLESHEET_PLACEHOLDER } from "./inline-stylesheet.server";
import type { RenderHints } from "./render-hints.server";

const css = "body{margin:0}.card{padding:1rem}";
const style = (text: string) => `<style id="site-css" data-href="/assets/app-x.css" nonce="n0">${text}</style>`;

describe("the inline stylesheet put back into a rendered page (ADR 128)", () => {
  it("replaces the placeholder React wrote in the element and tells the cache where the text is", () => {
    const hints: RenderHints = { whole: true };
    const page = Buffer.from(`<html><head>${style(STYLESHEET_PLACEHOLDER)}<title>Room</title></head></html>`);
    const back = putStylesheetBack(page, css, hints);
    expect(back.toString()).toBe(`<html><head>${style(css)}<title>Room</title></head></html>`);
    expect(hints.stylesheet?.at).toBe(back.indexOf(css));
    expect(hints.stylesheet?.part.raw.toString()).toBe(css);
  });

  it("leaves the same words in a listing's own text alone", () => {
    // A landlord may type the placeholder into a title: it is text, and the element comes first.
    const hints: RenderHints = {};
    const title = `<title>${STYLESHEET_PLACEHOLDER}</title>`;
    const page = Buffer.from(`<head>${title}${style(STYLESHEET_PLACEHOLDER)}</head><p>${STYLESHEET_PLACEHOLDER}</p>`);
    const back = putStylesheetBack(page, css, hints).toString();
    expect(back).toBe(`<head>${title}${style(css)}</head><p>${STYLESHEET_PLACEHOLDER}</p>`);
  });

  it("returns a page without the placeholder in the element as it is, and says nothing", () => {
    const hints: RenderHints = {};
    for (const html of [`<head>${style(css)}</head>`, `<head><title>${STYLESHEET_PLACEHOLDER}</title></head>`]) {
      const page = Buffer.from(html);
      expect(putStylesheetBack(page, css, hints)).toBe(page);
    }
    expect(hints.stylesheet).toBeUndefined();
  });
});
