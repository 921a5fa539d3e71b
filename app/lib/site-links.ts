export type TextPart = { text: string; href?: string };

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

/**
 * Splits plain text into parts, giving an href to http(s) URLs on our own
 * site only: a link elsewhere in a message (a contact form can carry
 * anything) stays plain text. Trailing punctuation is not part of a URL.
 */
export function linkifySiteUrls(text: string, siteUrl: string): TextPart[] {
  const origin = new URL(siteUrl).origin;
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(/[.,;:!?)\]}]+$/, "");
    const start = match.index;
    if (!isOnSite(url, origin)) continue;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: url, href: url });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

function isOnSite(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
