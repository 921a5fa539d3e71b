import { STYLESHEET_ELEMENT_ID } from "~/lib/stylesheet-element";
import type { RenderHints } from "./render-hints.server";
import { type CompressedPart, compressPart } from "./spliced-gzip.server";

/**
 * What React writes in place of the inline stylesheet's text in a page the page cache may keep
 * (ADR 128). The text is put back into the finished page's bytes, so React does not encode 42 KB
 * for every page, and the page cache learns where the part compressed once sits. A CSS comment:
 * were it ever sent as it is, the page would only lack its styles.
 */
export const STYLESHEET_PLACEHOLDER = "/*bodima:stylesheet*/";

const PLACEHOLDER = Buffer.from(STYLESHEET_PLACEHOLDER);
/**
 * The element's start as React writes it (`id` is its first attribute). React escapes '<' in
 * text and '<', '>' and quotes in attribute values, so this is the element itself, never a
 * listing's text, and its start tag ends at the first '>' after it.
 */
const ELEMENT_START = Buffer.from(`<style id="${STYLESHEET_ELEMENT_ID}"`);

let compressed: { css: string; part: CompressedPart } | undefined;

/** The stylesheet's text compressed once per process (the build's one stylesheet). */
function partOf(css: string): CompressedPart {
  if (compressed?.css !== css) compressed = { css, part: compressPart(Buffer.from(css)) };
  return compressed.part;
}

/**
 * The page with the stylesheet's text where React wrote the placeholder, and `hints` told where it
 * is. A page without the placeholder in that element comes back as it is.
 */
export function putStylesheetBack(page: Buffer, css: string, hints: RenderHints | undefined): Buffer {
  const element = page.indexOf(ELEMENT_START);
  if (element === -1) return page;
  const at = page.indexOf(0x3e, element) + 1;
  if (at === 0 || !page.subarray(at, at + PLACEHOLDER.length).equals(PLACEHOLDER)) return page;
  const part = partOf(css);
  if (hints) hints.stylesheet = { at, part };
  return Buffer.concat([page.subarray(0, at), part.raw, page.subarray(at + PLACEHOLDER.length)]);
}
