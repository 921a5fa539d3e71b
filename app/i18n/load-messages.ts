import type { Messages } from "./catalog";
import { i18n } from "./instance";
import { messagesFileFor } from "./messages-file";

/**
 * Browser only: loads one area's compiled messages for the page's language
 * (<html lang>) from the static file the catalogue plugin emitted (ADR 030).
 * `enFile` names the English file (messages-file.ts). The server
 * hints these files in the page's <head>, so this fetch usually finds the
 * response already there.
 */
export async function loadMessages(enFile: string): Promise<void> {
  const locale = document.documentElement.lang || "en";
  const file = messagesFileFor(enFile, locale);
  const response = await fetch(file);
  if (!response.ok) throw new Error(`Messages ${file}: HTTP ${response.status}`);
  i18n.load(locale, (await response.json()) as Messages);
  if (i18n.locale !== locale) i18n.activate(locale);
}
