/**
 * The messages file of one area in one language (ADR 030): the catalogue plugin
 * emits "/assets/<area>-<hash>.<lang>.json" with one hash for all languages, and
 * names the English file; the other languages replace its ending.
 */
export function messagesFileFor(enFile: string, locale: string): string {
  return enFile.replace(/\.en\.json$/, `.${locale}.json`);
}
