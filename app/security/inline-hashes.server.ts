import { createHash } from "node:crypto";
import { MODULE_AFTER_PAINT_TYPE } from "~/lib/scripts-after-paint.server";

/**
 * CSP source expressions ('sha256-…') for every inline <script> and <style>
 * of a rendered page, so a cached page can keep a strict policy without a
 * fresh nonce per response (ADR 012). React escapes '<' in text and attribute
 * values, so a '<script' in the HTML is always a real element, and an inline
 * script cannot contain '</script'.
 */
const INLINE = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;

const RUNS = new Set(["module", "text/javascript", "application/javascript", MODULE_AFTER_PAINT_TYPE]);

export type InlineHashes = { scripts: string[]; styles: string[] };

function sha256(text: string, encoding: BufferEncoding): string {
  return `'sha256-${createHash("sha256").update(text, encoding).digest("base64")}'`;
}

/**
 * `encoding` says how `html` was decoded from the page's bytes: "latin1" (one
 * character per byte, cheaper for a 60 KB page and the same bytes hashed) or
 * "utf8" (text as written).
 */
export function inlineHashes(html: string, encoding: "utf8" | "latin1" = "utf8"): InlineHashes {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  for (const [, tag, attributes, body] of html.matchAll(INLINE)) {
    if (tag.toLowerCase() === "style") {
      styles.add(sha256(body, encoding));
      continue;
    }
    // External scripts are allowed by 'self'; JSON-LD and other data blocks never run,
    // but the module script held back until the first paint does (ADR 035).
    if (/\ssrc\s*=/i.test(attributes) || body === "") continue;
    const type = /\stype\s*=\s*"([^"]*)"/i.exec(attributes)?.[1].toLowerCase();
    if (type && !RUNS.has(type)) continue;
    scripts.add(sha256(body, encoding));
  }
  return { scripts: [...scripts], styles: [...styles] };
}
