import { createHash } from "node:crypto";
import { MODULE_AFTER_PAINT_TYPE } from "~/lib/scripts-after-paint.server";

/**
 * CSP source expressions ('sha256-…') for every inline <script> and <style>
 * of a rendered page, so a cached page can keep a strict policy without a
 * fresh nonce per response (ADR 012). React escapes '<' and '>' in text and
 * attribute values, so a '<script' in the HTML is always a real element, its
 * start tag ends at the first '>', and an inline script cannot contain
 * '</script'. React writes tag names in lower case; an element it did not
 * write that way would get no hash, and the browser would not run it.
 */
const ELEMENTS = ["script", "style"] as const;
const OPENINGS = ELEMENTS.map((name) => Buffer.from(`<${name}`));
const CLOSINGS = ELEMENTS.map((name) => Buffer.from(`</${name}`));
const GT = 0x3e;
/** Bytes that may follow a tag's name: whitespace, '>' or '/'. */
const AFTER_NAME = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20, GT, 0x2f]);
const SPACE = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);

const RUNS = new Set(["module", "text/javascript", "application/javascript", MODULE_AFTER_PAINT_TYPE]);

export type InlineHashes = { scripts: string[]; styles: string[] };

function sha256(bytes: Uint8Array): string {
  return `'sha256-${createHash("sha256").update(bytes).digest("base64")}'`;
}

/** Where the element named `which` that starts at `open` ends: its body and the byte after its end tag. */
function elementAt(page: Buffer, which: number, open: number): { body: Buffer; tag: string; end: number } | null {
  const nameEnd = open + OPENINGS[which].length;
  if (!AFTER_NAME.has(page[nameEnd])) return null;
  const tagEnd = page.indexOf(GT, nameEnd);
  if (tagEnd === -1) return null;
  for (let close = page.indexOf(CLOSINGS[which], tagEnd); close !== -1; ) {
    let at = close + CLOSINGS[which].length;
    while (SPACE.has(page[at])) at++;
    if (page[at] === GT)
      return { body: page.subarray(tagEnd + 1, close), tag: page.toString("latin1", open, tagEnd), end: at + 1 };
    close = page.indexOf(CLOSINGS[which], close + 1);
  }
  return null;
}

/**
 * Read from the page's bytes, never decoded as a whole (a browse page is 130 KB): the few start
 * tags are read as text, the bodies hashed as they are, which is what the browser hashes.
 */
export function inlineHashes(page: Buffer | string): InlineHashes {
  const bytes = typeof page === "string" ? Buffer.from(page) : page;
  const scripts = new Set<string>();
  const styles = new Set<string>();
  // The next '<script' and '<style', each searched for again only once passed.
  const next = OPENINGS.map((opening) => bytes.indexOf(opening));
  let from = 0;
  while (next[0] !== -1 || next[1] !== -1) {
    const which = next[1] === -1 || (next[0] !== -1 && next[0] < next[1]) ? 0 : 1;
    const element = elementAt(bytes, which, next[which]);
    from = element ? element.end : next[which] + 1;
    for (let i = 0; i < next.length; i++)
      if (next[i] !== -1 && next[i] < from) next[i] = bytes.indexOf(OPENINGS[i], from);
    if (!element) continue;
    if (ELEMENTS[which] === "style") {
      styles.add(sha256(element.body));
      continue;
    }
    // External scripts are allowed by 'self'; JSON-LD and other data blocks never run,
    // but the module script held back until the first paint does (ADR 035).
    if (/\ssrc\s*=/i.test(element.tag) || element.body.length === 0) continue;
    const type = /\stype\s*=\s*"([^"]*)"/i.exec(element.tag)?.[1].toLowerCase();
    if (type && !RUNS.has(type)) continue;
    scripts.add(sha256(element.body));
  }
  return { scripts: [...scripts], styles: [...styles] };
}
